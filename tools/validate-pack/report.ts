import { formatDiagnostic } from '../../engine/index.ts';
import { isClean, type ExampleOutcome, type PackOutcome } from './check.ts';
import { formatFigure } from '../lib/money.ts';
import { plural } from '../lib/text.ts';

/** The human report: each pack's problems and summary, then one verdict line. */
export function formatReport(packs: readonly PackOutcome[]): string {
  const lines = packs.flatMap((pack) => [...packLines(pack), '']);
  lines.push(verdict(packs));
  return `${lines.join('\n')}\n`;
}

/** Problem lines start at the left margin as `file:line:col`, so editors and grep can jump to them. */
function packLines(pack: PackOutcome): string[] {
  const { counts } = pack;
  const lines = [`pack ${pack.id}/${pack.version} (${pack.dir})`];
  lines.push(...pack.diagnostics.map(formatDiagnostic), ...pack.notices.map(formatDiagnostic));
  for (const example of pack.examples) if (!example.passed) lines.push(...exampleLines(example, pack.moneyFacts));
  const sizes = [
    plural(counts.files, 'file'),
    plural(counts.sources, 'source'),
    plural(counts.facts, 'fact'),
    plural(counts.parameters, 'parameter'),
    plural(counts.rules, 'rule'),
    plural(counts.calculators, 'calculator'),
  ];
  const examples = pack.examplesRun
    ? `examples ${counts.examplesPassed}/${counts.examples} passed`
    : `${plural(counts.examples, 'example')} not run (fix the diagnostics first)`;
  lines.push(`  ${sizes.join(', ')}; ${examples}`);
  lines.push(`  ${isClean(pack) ? `clean${carriedNote(pack)}` : summary(tally(pack))}`);
  return lines;
}

/** For a clean pack with notices: what they are, so that "clean" is not read as "nothing to do". */
function carriedNote(pack: PackOutcome): string {
  if (pack.notices.length === 0) return '';
  return `, but ${plural(pack.notices.length, 'value')} carried unchanged from ${pack.carriedFrom ?? 'an earlier year'} ${pack.notices.length === 1 ? 'needs' : 'need'} updating or confirming (carried-value notices)`;
}

/** A failing example: where it is and why, then each figure that differs, money in cents and dollars. */
export function exampleLines(example: ExampleOutcome, moneyFacts: ReadonlySet<string>): string[] {
  const where = `${example.file}:${example.line}:${example.column} example \`${example.name}\` (${example.calculator})`;
  if (example.error !== undefined) return [`${where} could not run: ${example.error}`];
  return [
    `${where} does not give the expected figures`,
    ...example.mismatches.map((mismatch) => {
      const money = moneyFacts.has(mismatch.fact);
      return `    ${mismatch.fact}: expected ${formatFigure(mismatch.expected, money)}, actual ${formatFigure(mismatch.actual, money)}`;
    }),
  ];
}

function verdict(packs: readonly PackOutcome[]): string {
  const failing = packs.filter((pack) => !isClean(pack));
  if (failing.length === 0) {
    const passed = packs.reduce((sum, pack) => sum + pack.counts.examplesPassed, 0);
    const notices = packs.reduce((sum, pack) => sum + pack.notices.length, 0);
    return `OK: ${plural(packs.length, 'pack')} clean, no diagnostics, ${passed}/${passed} examples passed${notices > 0 ? `; ${plural(notices, 'notice')} to review` : ''}`;
  }
  const tallies = packs.map(tally);
  const totals = {
    diagnostics: tallies.reduce((sum, each) => sum + each.diagnostics, 0),
    failing: tallies.reduce((sum, each) => sum + each.failing, 0),
    unreadable: tallies.reduce((sum, each) => sum + each.unreadable, 0),
    notices: tallies.reduce((sum, each) => sum + each.notices, 0),
  };
  return `FAILED: ${failing.length} of ${plural(packs.length, 'pack')} ${failing.length === 1 ? 'has' : 'have'} problems (${summary(totals)})`;
}

type Tally = { diagnostics: number; failing: number; unreadable: number; notices: number };

function tally(pack: PackOutcome): Tally {
  return { diagnostics: pack.diagnostics.length, failing: pack.examples.filter((example) => !example.passed).length, unreadable: pack.unreadable.length, notices: pack.notices.length };
}

function summary(totals: Tally): string {
  const parts = [plural(totals.diagnostics, 'diagnostic'), plural(totals.failing, 'failing example')];
  if (totals.unreadable > 0) parts.push(plural(totals.unreadable, 'unreadable file'));
  if (totals.notices > 0) parts.push(plural(totals.notices, 'notice'));
  return parts.join(', ');
}
