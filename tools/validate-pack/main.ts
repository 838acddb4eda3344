/**
 * validate-pack: checks rule packs without starting the service, keeps checking them while they are
 * edited, draws their graphs and measures what their examples cover. Run through bin/validate-pack.js,
 * `npm run validate-pack --` or `tsx tools/validate-pack/main.ts`.
 */
import { fileURLToPath } from 'node:url';
import { usageError } from '../lib/usage.ts';
import { parseArgs, type Options } from './args.ts';
import { checkPacks, isClean, selectPacks, selectionProblems } from './check.ts';
import { formatCoverage, formatCoverageJson } from './coverage-report.ts';
import { isFull, measureCoverage } from './coverage.ts';
import { renderGraphs } from './graph-render.ts';
import { calculatorGraph } from './graph.ts';
import { HELP } from './help.ts';
import { formatJson } from './json.ts';
import { formatReport } from './report.ts';
import { watchPacks } from './watch.ts';

// Resolved from this file, not the working directory, so the default works from any folder.
const SHIPPED_PACKS = fileURLToPath(new URL('../../rulepacks/', import.meta.url));

const write = (text: string) => process.stdout.write(text);

/** Runs the tool on argv (without node and script) and returns the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usageError('validate-pack', [parsed.problem]);
  const { options } = parsed;
  if (options.help) {
    write(HELP);
    return 0;
  }
  const paths = options.paths.length > 0 ? options.paths : [SHIPPED_PACKS];
  switch (options.mode) {
    case 'check':
    case 'watch':
      return check(paths, options);
    case 'graph':
      return graph(paths, options);
    case 'coverage':
      return coverage(paths, options);
  }
}

async function check(paths: string[], options: Options): Promise<number> {
  const outcome = checkPacks(paths);
  if (!outcome.ok) return usageError('validate-pack', selectionProblems(outcome));
  const { packs } = outcome;
  if (options.mode === 'watch') return watchPacks(paths, packs, write);
  write(options.json ? formatJson(packs) : formatReport(packs));
  if (packs.some((pack) => pack.unreadable.length > 0)) return 2;
  return packs.every(isClean) ? 0 : 1;
}

function graph(paths: string[], options: Options): number {
  const selection = selectPacks(paths);
  if (!selection.ok) return usageError('validate-pack', selectionProblems(selection));
  const plans = selection.reports.flatMap((report) => report.plans);
  // A pack with diagnostics has no plans to draw; say which, rather than leave it silently out.
  const broken = selection.reports.filter((report) => report.diagnostics.length > 0);
  for (const report of broken) {
    process.stderr.write(`validate-pack: pack ${report.pack.id}/${report.pack.version} has ${report.diagnostics.length} diagnostic(s), so its calculators are not drawn; run validate-pack on it\n`);
  }
  if (plans.length > 0) write(renderGraphs(plans.map((plan, index) => calculatorGraph(plan, `c${index + 1}`)), options.format));
  return broken.length > 0 ? 1 : 0;
}

function coverage(paths: string[], options: Options): number {
  const selection = selectPacks(paths);
  if (!selection.ok) return usageError('validate-pack', selectionProblems(selection));
  const packs = selection.reports.map(measureCoverage);
  write(options.json ? formatCoverageJson(packs) : formatCoverage(packs));
  if (packs.some((pack) => !pack.measured)) return 1;
  return options.requireFull && !packs.every(isFull) ? 1 : 0;
}

// exitCode rather than process.exit(), so piped output is flushed before the process ends.
process.exitCode = await main(process.argv.slice(2));
