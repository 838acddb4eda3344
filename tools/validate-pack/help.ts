/** The text `validate-pack --help` prints. */
export const HELP = `Usage: validate-pack [paths...] [--json] [--help]

Checks rule packs the way the service does at boot, without starting it, then runs every worked
example of every pack that loaded cleanly.

Paths
  Each path is a pack folder (one holding pack.yaml, e.g. rulepacks/rules-au-pay/1.0.0) or a folder
  of packs (e.g. rulepacks). With no path, every pack under the project's rulepacks/ is checked.

What it checks
  - every file: YAML syntax, duplicate keys, the pack-format JSON Schema (unknown keys, types)
  - ids, references, rounding modes, parameter periods, units and table rows
  - expressions: operators, facts read with var (must be in requires), parameters read with param
  - the graph: duplicate-provider, missing-provider, missing-source, parameter-overlap,
    parameter-source-mismatch, cycle
  - examples: each example's facts run through its calculator; every expected figure must match

Output
  One line per problem, as  file:line:col kind message  (paths relative to the current folder).
  A failing example is reported as  file:line:col example \`name\` (calculator) ...  followed by each
  figure that differs, money in cents and dollars: expected 35300 ($353.00), actual 35400 ($354.00).
  Then a summary per pack (files, sources, facts, parameters, rules, calculators, examples passed)
  and a final verdict line.

  --json   print one JSON document instead:
           {"packs": [{"id", "version", "dir", "counts", "unreadable",
                       "diagnostics": [{"kind", "message", "file", "line", "column"}],
                       "examplesRun": false when diagnostics kept the examples from running,
                       "examples": [{"name", "calculator", "passed", "file", "line", "column",
                                     "mismatches": [{"fact", "expected", "actual"}], "error"?}]}],
            "ok": true|false}
           Expected and actual money figures are integer cents.
  --help   print this text

Exit codes
  0  every pack is clean and every example passes
  1  a diagnostic, or a failing example
  2  usage error (unknown option, a path that does not exist or is not a folder, a folder with no
     pack in it) or a pack file that cannot be read
`;
