/** The text `validate-pack --help` prints. */
export const HELP = `Usage: validate-pack [paths...] [--json] [--help]
       validate-pack [paths...] --watch
       validate-pack [paths...] --graph [--format mermaid|dot]
       validate-pack [paths...] --coverage [--json] [--require-full]

Checks rule packs the way the service does at boot, without starting it, then runs every worked
example of every pack that loaded cleanly.

Paths
  Each path is a pack folder (one holding pack.yaml, e.g. rulepacks/rules-au-pay/1.0.0) or a folder
  of packs (e.g. rulepacks). With no path, every pack under the project's rulepacks/ is checked.

What it checks
  - every file: YAML syntax, duplicate keys, the pack-format JSON Schema (unknown keys, types)
  - ids, references, rounding modes, parameter periods, units and table rows
  - formulas: syntax, at the line and column inside the formula; every name must be a fact in
    requires, a parameter in parameters or a let value; types; a misspelt name, keyword or function
    comes with the nearest known one ("did you mean ...?") (json-logic expressions likewise)
  - the graph: duplicate-provider, missing-provider, missing-source, parameter-overlap,
    parameter-source-mismatch, cycle
  - examples: each example's facts run through its calculator; every expected figure must match
  - values carried from the year before (notices, not problems): each value in force at the start
    of the pack's year with the figures the previous pack of its family applied (same family
    folder, lower version, latest earlier year), unless a carriedOver entry confirms it for the
    pack's year; and each carriedOver for the pack's year that confirms no such value

Output
  One line per problem, as  file:line:col kind message  (paths relative to the current folder).
  A failing example is reported as  file:line:col example \`name\` (calculator) ...  followed by each
  figure that differs, money in cents and dollars: expected 35300 ($353.00), actual 35400 ($354.00).
  A notice is printed the same way, with the kind carried-value; it does not change the verdict or
  the exit code.
  Then a summary per pack (files, sources, facts, parameters, rules, calculators, examples passed)
  and a final verdict line.

  --json   print one JSON document instead:
           {"packs": [{"id", "version", "dir", "counts", "unreadable",
                       "diagnostics": [{"kind", "message", "file", "line", "column"}],
                       "notices": [the same fields, for the carried-value notices],
                       "examplesRun": false when diagnostics kept the examples from running,
                       "examples": [{"name", "calculator", "passed", "file", "line", "column",
                                     "mismatches": [{"fact", "expected", "actual"}], "error"?}]}],
            "ok": true|false}
           Expected and actual money figures are integer cents.
  --help   print this text

--watch
  Prints the full report once, then watches the paths (recursively) and re-checks about 100 ms
  after the last change, printing only what changed since the previous check:
    + new: <diagnostic>            - fixed: <diagnostic>
    + notice: <notice>             - no longer noticed: <notice>
    + now fails: <example> ...     - now passes: <example>     ~ fails differently: <example> ...
  followed by  now: N diagnostics, M failing examples (and K notices, when there are some).  A diagnostic that only moved to another line
  is not reported again. Runs until interrupted (Ctrl-C).

--graph [--format mermaid|dot]
  Prints the fact/rule graph of every calculator of every clean pack as one document (default
  Mermaid, a flowchart with one subgraph per calculator; or Graphviz DOT, one cluster each).
  Rules are nodes, because one rule joins several facts and parameters into one result:
    input fact      parallelogram, class input
    derived fact    rounded box, class derived
    output fact     a derived fact the calculator returns: rounded box drawn bold, class output
    parameter       cylinder, class parameter, labelled with its value period for the pack's year
    rule            hexagon, class rule
  Arrows go from each fact a rule requires to the rule, and from the rule to the fact it provides;
  a dashed arrow goes from each parameter to the rule that reads it.

--coverage [--json] [--require-full]
  Runs every example of every pack with a trace of every step, and reports which rules ran and which
  rows of each bracket table were matched, for each value (effective period) of the table, with the
  examples that reach each one. Rows of a period that does not cover the pack's whole tax year cannot
  be reached by the pack's examples: they are listed but not counted. An example that ran but did
  not give its expected figures still counts (validate-pack without flags reports it).
  --json prints {"packs": [{"id", "version", "dir", "taxYear", "measured", "diagnostics",
  "examples": {"total", "ran", "couldNotRun"}, "rules": [{"id", "calculators", "examples"}],
  "tables": [{"parameter", "title", "readBy", "periods": [{"effectivePeriod", "source", "inEffect",
  "rows": [{"row", "values", "examples"}]}]}], "totals", "full"}], "full"}.

Exit codes
  0  every pack is clean and every example passes (notices or not)
     --watch: stopped by Ctrl-C (SIGINT) or SIGTERM
     --graph: every pack drawn
     --coverage: coverage measured for every pack, gaps or not (gaps are reported, not failed)
  1  a diagnostic, or a failing example
     --graph: a pack has diagnostics, so its calculators are not drawn (the rest are)
     --coverage: a pack has diagnostics, so it cannot be measured; or, with --require-full, a rule
     or an in-effect table row that no example exercises
  2  usage error (unknown option, options that do not go together, a path that does not exist or is
     not a folder, a folder with no pack in it) or a pack file that cannot be read
  70 internal error: a fault in the tool itself, not in its input (a two-line message on stderr)
`;
