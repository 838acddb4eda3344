/**
 * explain: runs one calculator from the command line and prints its figures and trace. Run through
 * bin/explain.js, `npm run explain --` or `tsx tools/explain/main.ts`.
 */
import { fileURLToPath } from 'node:url';
import { answerFrame, createCatalog, formatDiagnostic, loadPacks, readServingDefaults, runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import { displayPath } from '../lib/paths.ts';
import { buildsStoredYaml } from '../lib/stored-yaml.ts';
import { usageError } from '../lib/usage.ts';
import { parseArgs } from './args.ts';
import { readFacts } from './facts-input.ts';
import { HELP } from './help.ts';
import { factsFor, isDay, selectPlan } from './select.ts';
import { explanation } from './explanation.ts';
import { compareRuns } from './comparison.ts';
import { comparisonText } from './comparison-text.ts';

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
  const packPaths = options.packs.length > 0 ? options.packs : [SHIPPED_PACKS];
  const storedYaml = buildsStoredYaml();
  const loaded = loadPacks(packPaths, { storedYaml });
  if (loaded.missing.length > 0) return usageError('explain', loaded.missing.map((path) => `\`${path}\` is not a folder`));
  if (loaded.packs.length === 0) return usageError('explain', [`no pack (a folder with pack.yaml) in ${packPaths.map((path) => `\`${path}\``).join(', ')}`]);
  // The service will not start with a broken pack (or serving file), so neither does explain.
  const serving = readServingDefaults(packPaths, { storedYaml });
  const diagnostics = [...loaded.diagnostics, ...serving.diagnostics];
  if (diagnostics.length > 0) {
    return usageError('explain', [...diagnostics.map((diagnostic) => formatDiagnostic({ ...diagnostic, location: { ...diagnostic.location, file: displayPath(diagnostic.location.file) } })), 'the packs have diagnostics; run validate-pack on them']);
  }
  const catalog = createCatalog(loaded.packs.flatMap((report) => report.plans));
  const selected = selectPlan(catalog, options.calculatorId!, options.context, serving.defaults?.defaultTaxYear, facts.facts);
  if (!selected.ok) return usageError('explain', selected.problems);
  const { plan } = selected;
  if (options.against !== undefined) {
    // A day instead of a context: the same facts, paid on that day (for a calculator whose values a date chooses).
    const day = isDay(options.against) && plan.byDate ? options.against : undefined;
    const againstFacts = day === undefined ? undefined : { ...(facts.facts as Record<string, unknown>), [plan.byDate!.factId]: day };
    const against = againstFacts ? selectPlan(catalog, options.calculatorId!, plan.context.jurisdiction, undefined, againstFacts) : selectPlan(catalog, options.calculatorId!, options.against, serving.defaults?.defaultTaxYear);
    if (!against.ok) return usageError('explain', against.problems.map((problem) => `--against: ${problem}`));
    return compare(against.plan, plan, facts.facts, options.json, againstFacts ?? factsFor(against.plan, facts.facts));
  }

  // The report is the service's own JSON text: --json prints it in the service's answer, byte for byte.
  const outcome = runCalculator(plan, facts.facts, options.json ? { frame: answerFrame(plan) } : {});
  if (!outcome.ok) {
    if (outcome.failure === 'decode') {
      process.stderr.write(`explain: the facts do not decode for ${plan.def.id}:\n`);
      for (const issue of outcome.issues) process.stderr.write(`  ${['facts', ...issue.path].join('.')}: ${issue.message}\n`);
    } else process.stderr.write(`explain: the calculation failed: ${outcome.failure === 'calculation' ? outcome.message : 'it timed out'}\n`);
    return 1;
  }
  if (options.json) {
    process.stdout.write(`${outcome.json.toString()}\n`);
  } else process.stdout.write(explanation(plan, JSON.parse(outcome.json.toString()) as Record<string, unknown>, facts.facts));
  return 0;
}

/** `--against`: the same facts in two contexts, what differs printed (or, with --json, written as one JSON object). */
function compare(oldPlan: CalculatorPlan, newPlan: CalculatorPlan, facts: unknown, json: boolean, oldFacts: unknown): number {
  const compared = compareRuns(oldPlan, newPlan, facts, oldFacts);
  if (!compared.ok) {
    const { context } = compared.side === 'old' ? oldPlan : newPlan;
    process.stderr.write(`explain: for ${context.jurisdiction}/${context.taxYear}, ${compared.failure}\n`);
    return 1;
  }
  process.stdout.write(json ? `${JSON.stringify(compared.comparison)}\n` : comparisonText(compared.comparison, newPlan.def.title, { old: displayPath(oldPlan.pack.dir), new: displayPath(newPlan.pack.dir) }));
  return 0;
}

process.exitCode = main(process.argv.slice(2));
