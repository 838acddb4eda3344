/**
 * explain: runs one calculator from the command line and prints its figures and trace. Run through
 * bin/explain.js, `npm run explain --` or `tsx tools/explain/main.ts`.
 */
import { fileURLToPath } from 'node:url';
import { calculatorEntry, createCatalog, formatDiagnostic, loadPacks, runCalculator, runCalculatorJson, type CalculatorPlan, type TraceNode } from '../../engine/index.ts';
import { displayPath } from '../lib/paths.ts';
import { traceEveryStep } from '../lib/trace-all.ts';
import { usageError } from '../lib/usage.ts';
import { parseArgs } from './args.ts';
import { readFacts } from './facts-input.ts';
import { figureLines, isTraceNode } from './figures.ts';
import { HELP } from './help.ts';
import { selectPlan } from './select.ts';
import { traceLines } from './tree.ts';

const SHIPPED_PACKS = fileURLToPath(new URL('../../rulepacks/', import.meta.url));

function main(argv: readonly string[]): number {
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usageError('explain', [parsed.problem]);
  const { options } = parsed;
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const facts = readFacts(options.facts!);
  if (!facts.ok) return usageError('explain', [facts.problem]);
  const loaded = loadPacks([options.packs ?? SHIPPED_PACKS]);
  if (loaded.missing.length > 0) return usageError('explain', [`\`${options.packs}\` is not a folder`]);
  if (loaded.packs.length === 0) return usageError('explain', [`no pack (a folder with pack.yaml) in \`${options.packs}\``]);
  // The service will not start with a broken pack, so neither does explain.
  if (loaded.diagnostics.length > 0) {
    return usageError('explain', [...loaded.diagnostics.map((diagnostic) => formatDiagnostic({ ...diagnostic, location: { ...diagnostic.location, file: displayPath(diagnostic.location.file) } })), 'the packs have diagnostics; run validate-pack on them']);
  }
  const selected = selectPlan(createCatalog(loaded.packs.flatMap((report) => report.plans)), options.calculatorId!, options.context);
  if (!selected.ok) return usageError('explain', selected.problems);
  const { plan } = selected;

  // --json writes the report as the service does (runCalculatorJson), so the bytes are the API's.
  const outcome = options.json ? runCalculatorJson(plan, facts.facts) : runCalculator(plan, facts.facts);
  if (!outcome.ok) {
    if (outcome.failure === 'decode') {
      process.stderr.write(`explain: the facts do not decode for ${plan.def.id}:\n`);
      for (const issue of outcome.issues) process.stderr.write(`  ${['facts', ...issue.path].join('.')}: ${issue.message}\n`);
    } else process.stderr.write(`explain: the calculation failed: ${outcome.failure === 'calculation' ? outcome.message : 'it timed out'}\n`);
    return 1;
  }
  if ('json' in outcome) {
    process.stdout.write(`{"calculator":${JSON.stringify(calculatorEntry(plan))},"diagnostics":{"_tag":"CalculationDiagnostics","graphIssues":[]},"report":${outcome.json}}\n`);
  } else process.stdout.write(explanation(plan, outcome.report as Record<string, unknown>, facts.facts));
  return 0;
}

function explanation(plan: CalculatorPlan, report: Record<string, unknown>, facts: unknown): string {
  const sources = new Map(plan.pack.sources.map((source) => [source.id, source]));
  const sourceOf = (id: string) => sources.get(id);
  const printed = new Set<string>();
  const trace = traceRoots(report).flatMap((node) => (printed.has(node.ruleId) ? [] : traceLines(node, sourceOf, printed)));
  // A report traces only what its template names (the annual report does not trace `liability`):
  // the steps it leaves out are shown after it, so that every step of the calculation is explained.
  const everyStep = traceEveryStep(plan, facts);
  const untraced = everyStep.ok ? everyStep.nodes.filter((node) => !printed.has(node.ruleId)) : [];
  const rest = untraced.flatMap((node) => (printed.has(node.ruleId) ? [] : traceLines(node, sourceOf, printed)));
  const lines = [
    `${plan.def.title} (${plan.def.id}), ${plan.context.jurisdiction} ${plan.context.taxYear}, rule pack ${plan.rulePackVersion}`,
    '',
    'Figures',
    ...figureLines(report),
    '',
    'Trace',
    ...trace,
    ...(rest.length > 0 ? ['', 'Steps the report does not trace', ...rest] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Every trace node the report holds, shallowest first, so the report's main trace comes before the parts of it that fields repeat. */
function traceRoots(report: Record<string, unknown>): TraceNode[] {
  const found: TraceNode[] = [];
  let level: unknown[] = [report];
  while (level.length > 0) {
    const next: unknown[] = [];
    for (const value of level) {
      if (isTraceNode(value)) found.push(value as TraceNode);
      else if (typeof value === 'object' && value !== null) next.push(...Object.values(value));
    }
    level = next;
  }
  return found;
}

process.exitCode = main(process.argv.slice(2));
