/** The text `pack-diff --help` prints. */
export const HELP = `Usage: pack-diff <old-pack-folder> <new-pack-folder>
       pack-diff <pack-folder> --rev <old-revision> [--rev <new-revision>]

Shows what changed between two versions of a rule pack, in the terms a reviewer reads, and what the
change does to the figures.

Arguments
  Two pack folders (each one holding pack.yaml), old first:
      pack-diff rulepacks/rules-au-pay/1.0.0 test/fixtures/packs/next-year/rules-au-pay/99.0.0
  Or one pack folder and git revisions: the folder as it was at each revision (read with git from
  the repository holding the folder, written to a temporary folder that is removed afterwards):
      pack-diff rulepacks/rules-au-pay/1.0.0 --rev HEAD~1 --rev HEAD
  With one --rev, the new version is the folder as it is on disk now:
      pack-diff rulepacks/rules-au-pay/1.0.0 --rev main
  --help   print this text

What it compares (meaning, not text: reformatting or comments alone are no change)
  Pack             id, version, title, description, jurisdiction, tax year, currency, rounding modes
  Sources          added, removed, changed (kind, reference, title)
  Parameters       added, removed; for each parameter in both, first the value in effect for each
                   pack's tax year, old → new: its period, source, scalar value, each table
                   row's changed cells and its carriedOver confirmation, however the dated values are arranged (a new value added
                   beside the old one shows per-coefficient changes, not the whole table); then
                   the dated values that came, went or changed (paired by effective period), each
                   named by its period only when it is one of the values compared above
  Rules            added, removed; the formula before and after, on one line as the engine
                   reads it; requires, provides, parameters, sources, rounding, explanation
  Facts            added, removed; title, authority, schema tag, shape, question, example
  Calculators      added, removed; inputs, outputs, the rules their plans run, schemas, report
  Examples         example definitions added, removed, changed (facts, expected figures, source)
  Example results  every example of BOTH versions is run through BOTH versions (a case written in
                   both runs once); each case whose derived figures differ is listed with each
                   figure old → new and the difference in cents and dollars: $353.00 → $328.00
                   -2500 (-$25.00)
  Lines start with + (added), - (removed) or ~ (changed); details are indented beneath.

Exit codes (like diff)
  0  no change
  1  changes (definitions or example results)
  2  trouble: usage error, a folder that is not a pack, a revision or path git cannot read, or a
     version that does not load cleanly (its diagnostics are printed; run validate-pack on it)
  70 internal error: a fault in the tool itself, not in its input (a two-line message on stderr)
`;
