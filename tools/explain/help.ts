/** The text `explain --help` prints. */
export const HELP = `Usage: explain <calculatorId> --facts <file|-|json> [--context JURISDICTION/TAXYEAR]
               [--against JURISDICTION/TAXYEAR|YYYY-MM-DD] [--packs <dir>]... [--json] [--help]

Runs one calculator from the command line, as the API's calculate route would, and explains the
result: the report's figures, then the whole calculation trace as an indented tree. With --against,
runs the same facts in two contexts (say this year's packs and last year's) and shows what changed.

Arguments
  <calculatorId>     e.g. au.pay.take-home, au.pay.withholdings, au.income-tax.annual
  --facts <value>    the facts object, as the API's request body carries it under "facts":
                     a JSON file, - for standard input, or the JSON itself (anything starting with {)
                     e.g. --facts '{"taxableIncome": {"_tag": "Money", "cents": 9000000, "currency": "AUD"}}'
  --context <J/Y>    jurisdiction and tax year, written like AU/YYYY-YY with a tax year of the packs.
                     As in the API, a part left out (AU, or /YYYY-YY) matches any; with no tax year,
                     a calculator whose values a date chooses (au.payroll.withholding: paymentDate)
                     takes the year of the facts' date; any other, the default tax year of the
                     packs' serving.yaml when the calculator has it, else the first in catalog order. A context the calculator does not have is a
                     usage error that suggests the nearest one (the closest tax year).
  --against <J/Y>    compare with this context (the old side; --context is the new one): prints both
                     results, the difference of every figure, and, step by step, each step whose
                     inputs or result differ, old → new, with the parameter values that changed and
                     their periods and sources; intermediate values show their value before rounding.
                     A table shows only the row matched, and says whether its other rows changed
                     too: pack-diff on the two packs' folders (named in the output) shows every row.
                     For a calculator whose values a date chooses, the date moves into the other
                     year (same day of the year); or give a day, YYYY-MM-DD, instead of a context:
                     the same facts paid on that day, e.g. --against 2025-09-23
  --packs <dir>      a pack folder or a folder of packs (default: the project's rulepacks/); give it
                     more than once to load packs from several folders
  --json             print exactly the body the API returns on success:
                     {"calculator": ..., "diagnostics": {"_tag": "CalculationDiagnostics",
                      "graphIssues": []}, "report": ...} on one line. With --against, the
                     comparison as one JSON object on one line: {calculatorId, old and new (context,
                     rulePackVersion, report), figures (figure, label, old, new, differenceCents,
                     changed), steps (ruleId, title, ranIn, and the facts, parameters, intermediate
                     values, beforeRounding and result that differ, each old and new; a table read
                     in both has otherRows, same or changed), unchangedSteps}
  --help             print this text

Output (without --json)
  A heading (calculator, context, rule pack version), then Figures: every figure of the report,
  money as dollars and cents, ledger components with their effect and status. Then Trace: one
  ● line per step with its title and rule id, and beneath it
    formula          the rule's formula on one line, as the engine reads it
    facts            the facts the rule read
    parameters       each parameter read: its value, or the table row matched (and, for marginal
                     tables, the amount due below that row); the period it is in effect; its source
    intermediate     values the formula named with let, as the engine holds them (cents);
                     a rounded one with its exact value before rounding
    before rounding  the exact result, when the rule's rounding changed it
    result           the rule's result and its rounding mode
    sources          the sources the step rests on (its own and its parameters')
  then the steps it rests on, indented. A step reached twice is shown once.

Exit codes
  0  the calculation ran; its explanation (or, with --json, the API response) is on stdout
  1  the facts do not decode (each issue is printed as path: message on stderr), or the
     calculation failed (the reason is printed on stderr)
  2  usage error: bad arguments, facts that cannot be read or are not JSON, a packs folder that is
     missing or has diagnostics, an unknown calculator or a context it is not available for (with
     the nearest names and the known ones)
  70 internal error: a fault in the tool itself, not in its input (a two-line message on stderr)

With --against, the exit codes are the same: 0 when both calculations ran (whatever differs), 1
when either could not (the context is named on stderr), 2 for a usage error.
`;
