import { plural } from '../lib/text.ts';
import { coverageTotals, isFull, type PackCoverage, type PeriodCoverage } from './coverage.ts';

/** The human coverage report: per pack, each rule and each table row with the examples that reach it, then a verdict. */
export function formatCoverage(packs: readonly PackCoverage[]): string {
  const lines = packs.flatMap((pack) => [...packLines(pack), '']);
  lines.push(verdict(packs));
  return `${lines.join('\n')}\n`;
}

/** The `--coverage --json` document. */
export function formatCoverageJson(packs: readonly PackCoverage[]): string {
  const document = {
    packs: packs.map((pack) => ({ ...pack, totals: coverageTotals(pack), full: isFull(pack) })),
    full: packs.every(isFull),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function packLines(pack: PackCoverage): string[] {
  const head = `pack ${pack.id}/${pack.version} (${pack.dir}), tax year ${pack.taxYear}`;
  if (!pack.measured) return [head, `  not measured: ${plural(pack.diagnostics, 'diagnostic')}; run validate-pack on it and fix them first`];
  const totals = coverageTotals(pack);
  const lines = [head, `  examples: ${pack.examples.ran} of ${pack.examples.total} ran`];
  for (const example of pack.examples.couldNotRun) lines.push(`    could not run: \`${example.name}\`: ${example.error}`);
  lines.push(`  rules: ${totals.rules.exercised}/${totals.rules.total} exercised`);
  const width = Math.max(...pack.rules.map((rule) => rule.id.length));
  for (const rule of pack.rules) {
    const why = rule.calculators.length === 0 ? 'NOT EXERCISED (no calculator uses it)' : reach(rule.examples);
    lines.push(`    ${rule.id.padEnd(width)}  ${why}`);
  }
  lines.push(`  bracket table rows: ${totals.rows.exercised}/${totals.rows.total} exercised`);
  for (const table of pack.tables) {
    for (const period of table.periods) lines.push(...periodLines(table.parameter, table.readBy, period, pack.taxYear));
  }
  const gaps = [
    ...pack.rules.filter((rule) => rule.examples.length === 0).map((rule) => `rule ${rule.id}`),
    ...pack.tables.flatMap((table) =>
      table.periods.filter((period) => period.inEffect).flatMap((period) => period.rows.filter((row) => row.examples.length === 0).map((row) => `${table.parameter} row ${row.row}`)),
    ),
  ];
  lines.push(gaps.length === 0 ? '  full coverage' : `  not exercised: ${gaps.join('; ')}`);
  return lines;
}

function periodLines(parameter: string, readBy: readonly string[], period: PeriodCoverage, taxYear: string): string[] {
  const { from, toExclusive } = period.effectivePeriod;
  const when = toExclusive === null ? `from ${from}` : `${from} to before ${toExclusive}`;
  const exercised = period.rows.filter((row) => row.examples.length > 0).length;
  const status = !period.inEffect
    ? `not in effect for the whole of ${taxYear}, so no example of this pack can reach it (not counted)`
    : readBy.length === 0
      ? `${exercised}/${period.rows.length} rows (no rule reads it)`
      : `${exercised}/${period.rows.length} rows`;
  const lines = [`    ${parameter}, ${when} (source ${period.source}): ${status}`];
  if (!period.inEffect) return lines;
  const cells = period.rows.map((row) => rowText(row.values));
  const width = Math.max(...cells.map((cell) => cell.length));
  period.rows.forEach((row, index) => lines.push(`      row ${String(row.row).padEnd(2)} ${cells[index]!.padEnd(width)}  ${reach(row.examples)}`));
  return lines;
}

/** `upTo 45000, base 700, rate 0.05, over 37500`: the row as written, an open bound shown as `none`. */
function rowText(values: Readonly<Record<string, unknown>>): string {
  return Object.entries(values)
    .map(([column, value]) => `${column} ${value === null ? 'none' : String(value)}`)
    .join(', ');
}

function reach(examples: readonly string[]): string {
  if (examples.length === 0) return 'NOT EXERCISED';
  return `${plural(examples.length, 'example')}, e.g. \`${examples[0]}\``;
}

function verdict(packs: readonly PackCoverage[]): string {
  const totals = packs.filter((pack) => pack.measured).map(coverageTotals);
  const sum = (pick: (each: (typeof totals)[number]) => number) => totals.reduce((total, each) => total + pick(each), 0);
  const figures = `rules ${sum((each) => each.rules.exercised)}/${sum((each) => each.rules.total)}, bracket table rows ${sum((each) => each.rows.exercised)}/${sum((each) => each.rows.total)}`;
  const unmeasured = packs.filter((pack) => !pack.measured).length;
  if (unmeasured > 0) return `NOT MEASURED: ${unmeasured} of ${plural(packs.length, 'pack')} ${unmeasured === 1 ? 'has' : 'have'} diagnostics; ${figures} in the rest`;
  return `${packs.every(isFull) ? 'FULL' : 'GAPS'}: ${plural(packs.length, 'pack')}, ${figures} exercised by the examples`;
}
