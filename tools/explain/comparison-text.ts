import { dollars, dollarsOfCentsText, dollarsOfText } from '../lib/money.ts';
import { renderValue } from '../lib/values.ts';
import type { Comparison, Difference, ParameterDifference, ParameterValue, StepChange } from './comparison.ts';

/** The folders of the two packs compared, as the reader would give them to pack-diff. */
export interface PackFolders {
  old: string;
  new: string;
}

/**
 * The comparison as text: a heading naming both contexts and packs, every figure in both with its
 * difference, then each step that differs, with what differs written old → new.
 */
export function comparisonText(comparison: Comparison, calculatorTitle: string, folders: PackFolders): string {
  const { old, new: now } = comparison;
  const name = (side: typeof old) => `${side.context.jurisdiction} ${side.context.taxYear}`;
  const lines = [
    `${calculatorTitle} (${comparison.calculatorId}): ${name(now)} against ${name(old)}`,
    `  old: ${name(old)}, rule pack ${old.rulePackVersion}`,
    `  new: ${name(now)}, rule pack ${now.rulePackVersion}`,
    '',
    ...figureTable(comparison, name(old), name(now)),
    '',
    `Steps that differ, ${name(old)} → ${name(now)}`,
    ...(comparison.steps.length > 0 ? comparison.steps.flatMap((step) => stepLines(step, folders)) : ['  none: every step read the same values and gave the same result']),
  ];
  if (comparison.unchangedSteps.length > 0) lines.push('', `Steps with the same inputs and result: ${comparison.unchangedSteps.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function figureTable(comparison: Comparison, oldName: string, newName: string): string[] {
  const shown = (value: unknown) => (value === null ? '(none)' : renderValue(value));
  const rows = comparison.figures.map((figure) => [
    figure.label,
    shown(figure.old),
    shown(figure.new),
    figure.differenceCents !== null ? (figure.differenceCents === 0 ? '' : signedDollars(figure.differenceCents)) : figure.changed ? 'changed' : '',
  ]);
  const header = ['Figures', oldName, newName, 'difference'];
  // Figure labels are indented under the heading, so the first column is two wider than they are.
  const indented = rows.map(([label, ...rest]) => [`  ${label}`, ...rest]);
  const widths = header.map((title, column) => Math.max(title.length, ...indented.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((text, column) => (column < cells.length - 1 ? text.padEnd(widths[column]!) : text)).join('  ').trimEnd();
  return [line(header), ...indented.map(line)];
}

function stepLines(step: StepChange, folders: PackFolders): string[] {
  const lines = [`● ${step.title}  [rule ${step.ruleId}]${step.ranIn === 'both' ? '' : ` (only in the ${step.ranIn} calculation)`}`];
  const field = (label: string, values: readonly string[]) => values.forEach((value, index) => lines.push(`  ${(index === 0 ? label : '').padEnd(16)}${value}`));
  if (step.facts.length > 0) field('facts', step.facts.map((fact) => `${fact.name} = ${valueText(fact.old)} → ${valueText(fact.new)}`));
  if (step.parameters.length > 0) field('parameters', step.parameters.flatMap((change) => parameterLines(change, folders)));
  if (step.intermediate.length > 0) {
    const text = (value: Difference<{ value: unknown; beforeRounding: string | null }>['old']) =>
      value === null ? '(none)' : `${renderValue(value.value)}${value.beforeRounding === null ? '' : ` (before rounding ${value.beforeRounding})`}`;
    field('intermediate', [...step.intermediate.map((item) => `${item.name} = ${text(item.old)} → ${text(item.new)}`), '(as the engine holds them: amounts in cents)']);
  }
  if (step.beforeRounding) field('before rounding', [`${step.beforeRounding.old ?? '(none)'} → ${step.beforeRounding.new ?? '(none)'}`]);
  if (step.result) field('result', [`${valueText(step.result.old)} → ${valueText(step.result.new)}`]);
  return lines;
}

/**
 * A parameter read, old → new: the value (or, for the same table row, each cell that changed),
 * whether the table's other rows changed too (pack-diff shows the whole table), the period it is in
 * effect, and its source.
 */
function parameterLines(change: ParameterDifference, folders: PackFolders): string[] {
  const { old, new: now } = change;
  const title = (now ?? old)!.title;
  const lines = [`${change.name} (${title})`];
  if (!old || !now) {
    const only = (old ?? now)!;
    lines.push(`    ${old ? 'only in the old calculation' : 'only in the new calculation'}: ${valueOf(only)}; in effect ${periodOf(only)}; source ${sourceOf(only)}`);
    return lines;
  }
  if (old.matchedRow !== undefined && old.matchedRow === now.matchedRow) {
    const columns = [...new Set([...Object.keys(old.row ?? {}), ...Object.keys(now.row ?? {})])];
    const cells = columns.filter((column) => old.row?.[column] !== now.row?.[column]).map((column) => `${column} ${cell(old.row?.[column])} → ${cell(now.row?.[column])}`);
    lines.push(`    row ${now.matchedRow}: ${cells.length > 0 ? cells.join(', ') : 'the same cells'}`);
    if (old.amountBelowRow !== now.amountBelowRow) lines.push(`    amount due below the row ${dollarsOfText(old.amountBelowRow ?? '0')} → ${dollarsOfText(now.amountBelowRow ?? '0')}`);
  } else if (valueOf(old) !== valueOf(now)) lines.push(`    ${valueOf(old)} → ${valueOf(now)}`);
  else lines.push(`    ${valueOf(now)} (the same value)`);
  if (change.otherRows === 'changed') {
    // Two values of one pack (a table that changes during the year): the file holds both, one after the other.
    lines.push(folders.old === folders.new ? `    other rows of the table differ too; both values, row by row, are in ${folders.new}/parameters/${change.name}.yaml` : `    other rows of the table changed too; every row, old → new: npx pack-diff ${folders.old} ${folders.new}`);
  }
  else if (change.otherRows === 'same') lines.push('    no other row of the table changed');
  lines.push(periodOf(old) === periodOf(now) ? `    in effect ${periodOf(now)} (the same period)` : `    in effect ${periodOf(old)} → ${periodOf(now)}`);
  lines.push(sourceOf(old) === sourceOf(now) ? `    source ${sourceOf(now)} (the same source)` : `    source ${sourceOf(old)} → ${sourceOf(now)}`);
  return lines;
}

function valueOf(read: ParameterValue): string {
  if (read.matchedRow !== undefined) {
    const row = Object.entries(read.row ?? {}).map(([column, value]) => `${column} ${cell(value)}`).join(', ');
    return `row ${read.matchedRow}: ${row}${read.amountBelowRow !== undefined ? `; amount due below the row ${dollarsOfText(read.amountBelowRow)}` : ''}`;
  }
  const text = String(read.value);
  return read.unit === 'dollars' ? dollarsOfText(text) : read.unit === 'cents' ? dollarsOfCentsText(text) : `${text} (${read.unit})`;
}

function periodOf(read: ParameterValue): string {
  const { from, toExclusive } = read.effectivePeriod;
  return toExclusive === null ? `from ${from}` : `${from} to before ${toExclusive}`;
}

function sourceOf(read: ParameterValue): string {
  return `${read.source.id}${read.source.reference ? ` (${read.source.reference})` : ''}`;
}

function valueText(value: unknown): string {
  return value === null ? '(none)' : renderValue(value);
}

function cell(value: unknown): string {
  return value === null ? 'none' : value === undefined ? '(absent)' : String(value);
}

function signedDollars(cents: number): string {
  return cents > 0 ? `+${dollars(cents)}` : dollars(cents);
}

