import { valueInEffect, type PackDef, type ParameterDef } from '../../engine/index.ts';
import { fieldChange, pairById, period, same, text, type Section } from './compare.ts';

type ValueDef = ParameterDef['values'][number];

/**
 * Parameters added, removed and changed. For a parameter in both, first the value in effect for each
 * pack's tax year, old → new (its period, source, scalar value or table rows, row by row), however
 * the YAML arranges its dated values; then the dated values themselves that came, went or changed,
 * without repeating the ones already compared.
 */
export function parameterSection(old: PackDef, now: PackDef): Section {
  const { removed, added, both } = pairById(old.parameters, now.parameters);
  const lines: string[] = [];
  for (const parameter of removed) lines.push(`- ${parameter.id} (${parameter.title})`);
  for (const parameter of added) {
    lines.push(`+ ${parameter.id} (${parameter.title})`);
    for (const value of parameter.values) lines.push(`    ${valueText(value)}; source ${sourceName(now)(value.source)}`);
  }
  for (const [before, after] of both) {
    const parts = partsInEffect(before, after, old, now);
    const detail = [
      ...fieldChange('title', before.title, after.title),
      ...fieldChange('description', before.description, after.description),
      ...fieldChange('unit', before.unit, after.unit),
      ...fieldChange('table', before.table, after.table),
      ...parts.flatMap((part) => inEffectChange(part.old, part.new, old, now, part.label)),
      ...valuesChange(before.values, after.values, sourceName(old), sourceName(now), parts),
    ];
    if (detail.length > 0) lines.push(`~ ${after.id} (${after.title})`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Parameters', lines };
}

const sourceName = (pack: PackDef) => (id: string) => {
  const source = pack.sources.find((candidate) => candidate.id === id);
  return source ? `${id} (${source.reference})` : id;
};

/** The values compared for a stretch of the year: the old pack's and the new pack's, and how the stretch is named. */
interface PartInEffect {
  old: ValueDef | undefined;
  new: ValueDef | undefined;
  /** The tax year (`<old year> → <new year>` when they differ), and for a stretch of a year whose values change, its days. */
  label: string;
}

/**
 * The values in effect for each pack's tax year, paired. A parameter whose values change during the
 * year is compared stretch by stretch, between the days either pack changes it: the same days of
 * the same year, or, from one year to the next, each stretch of the new year against the value the
 * old year ended with.
 */
function partsInEffect(before: ParameterDef, after: ParameterDef, old: PackDef, now: PackDef): PartInEffect[] {
  const years = old.taxYear.id === now.taxYear.id ? old.taxYear.id : `${old.taxYear.id} → ${now.taxYear.id}`;
  const whole = { old: valueInEffect(before, old.taxYear), new: valueInEffect(after, now.taxYear) };
  if (whole.old && whole.new) return [{ ...whole, label: years }];
  const sameYear = old.taxYear.from === now.taxYear.from && old.taxYear.toExclusive === now.taxYear.toExclusive;
  const newDays = stretches(now.taxYear, sameYear ? [before, after] : [after]);
  if (newDays.length === 1 && !(sameYear ? false : stretches(old.taxYear, [before]).length > 1)) return [{ ...whole, label: years }];
  const oldLast = stretches(old.taxYear, [before]).at(-1)!;
  return newDays.map((days) => ({
    old: valueInEffect(before, sameYear ? days : oldLast),
    new: valueInEffect(after, days),
    label: `${years}, ${period(days)}`,
  }));
}

/** A year cut at every day inside it on which one of the parameters' values starts or stops. */
function stretches(year: PackDef['taxYear'], parameters: readonly ParameterDef[]): { from: string; toExclusive: string }[] {
  const days = new Set<string>();
  for (const parameter of parameters) {
    for (const { effectivePeriod } of parameter.values) {
      for (const day of [effectivePeriod.from, effectivePeriod.toExclusive]) if (day !== null && day > year.from && day < year.toExclusive) days.add(day);
    }
  }
  const bounds = [year.from, ...[...days].sort(), year.toExclusive];
  return bounds.slice(1).map((toExclusive, index) => ({ from: bounds[index]!, toExclusive }));
}

/** `in effect for <old year> → <new year>:` then the value's period, source and content, old → new; nothing when they agree. */
function inEffectChange(before: ValueDef | undefined, after: ValueDef | undefined, old: PackDef, now: PackDef, years: string): string[] {
  if (!before || !after) {
    if (!before && !after) return [];
    const missing = (pack: PackDef) => `none (no single value covers ${pack.taxYear.id})`;
    const shown = (value: ValueDef | undefined, pack: PackDef) => (value ? `${valueText(value)}; source ${sourceName(pack)(value.source)}` : missing(pack));
    return [`in effect for ${years}:`, `  old: ${shown(before, old)}`, `  new: ${shown(after, now)}`];
  }
  const detail = [
    ...fieldChange('effective period', before.effectivePeriod, after.effectivePeriod, (value) => period(value as ValueDef['effectivePeriod'])),
    ...(sourceName(old)(before.source) === sourceName(now)(after.source) ? [] : [`source: ${sourceName(old)(before.source)} → ${sourceName(now)(after.source)}`]),
    ...fieldChange('value', before.value, after.value),
    ...rowsChange(before.rows ?? [], after.rows ?? []),
    ...fieldChange('carried over', before.carriedOver, after.carriedOver, carriedText),
  ];
  if (detail.length === 0) return [];
  // The source is named once: in the heading when it stayed, on its own line when it changed.
  const stayed = sourceName(old)(before.source) === sourceName(now)(after.source);
  return [`in effect for ${years}${stayed ? `, source ${sourceName(now)(after.source)}` : ''}:`, ...detail.map((line) => `  ${line}`)];
}

/**
 * The dated values as written: pairs old and new values (same period first, then the same start,
 * then in order) and describes each pair's changes; unpaired values are added or removed. The values
 * in effect for the two years were compared above: a pair of them is not repeated, and one of them
 * added or removed is named by its period only.
 */
function valuesChange(
  old: readonly ValueDef[],
  now: readonly ValueDef[],
  oldSource: (id: string) => string,
  newSource: (id: string) => string,
  compared: readonly PartInEffect[],
): string[] {
  const left = [...old];
  const right = [...now];
  const pairs: [ValueDef, ValueDef][] = [];
  const take = (match: (a: ValueDef, b: ValueDef) => boolean) => {
    for (const value of [...left]) {
      const partner = right.find((candidate) => match(value, candidate));
      if (!partner) continue;
      pairs.push([value, partner]);
      left.splice(left.indexOf(value), 1);
      right.splice(right.indexOf(partner), 1);
    }
  };
  take((a, b) => same(a.effectivePeriod, b.effectivePeriod));
  take((a, b) => a.effectivePeriod.from === b.effectivePeriod.from);
  take(() => true);
  const lines: string[] = [];
  for (const [before, after] of pairs) {
    if (compared.some((part) => part.old === before && part.new === after)) continue;
    const detail = [
      ...fieldChange('effective period', before.effectivePeriod, after.effectivePeriod, (value) => period(value as ValueDef['effectivePeriod'])),
      ...(before.source === after.source ? [] : [`source: ${oldSource(before.source)} → ${newSource(after.source)}`]),
      ...fieldChange('value', before.value, after.value),
      ...rowsChange(before.rows ?? [], after.rows ?? []),
      ...fieldChange('carried over', before.carriedOver, after.carriedOver, carriedText),
    ];
    if (detail.length === 0) continue;
    lines.push(`value ${period(after.effectivePeriod)}${before.source === after.source ? `, source ${newSource(after.source)}` : ''}:`, ...detail.map((line) => `  ${line}`));
  }
  const named = (value: ValueDef, side: string) => `${period(value.effectivePeriod)} (the value in effect for the ${side} year, compared above)`;
  for (const value of left) lines.push(compared.some((part) => part.old === value) ? `- value ${named(value, 'old')}` : `- value ${valueText(value)}; source ${oldSource(value.source)}`);
  for (const value of right) lines.push(compared.some((part) => part.new === value) ? `+ value ${named(value, 'new')}` : `+ value ${valueText(value)}; source ${newSource(value.source)}`);
  return lines;
}

/** Row by row: `row 2: below 371 → 380, a 0.2117 → 0.2000`; rows beyond the shorter table are added or removed. */
function rowsChange(old: readonly Record<string, unknown>[], now: readonly Record<string, unknown>[]): string[] {
  const lines: string[] = [];
  for (let index = 0; index < Math.max(old.length, now.length); index++) {
    const before = old[index];
    const after = now[index];
    if (!after) lines.push(`- row ${index + 1}: ${rowText(before!)}`);
    else if (!before) lines.push(`+ row ${index + 1}: ${rowText(after)}`);
    else {
      const columns = [...new Set([...Object.keys(before), ...Object.keys(after)])];
      const changed = columns.filter((column) => !same(before[column], after[column])).map((column) => `${column} ${cell(before[column])} → ${cell(after[column])}`);
      if (changed.length > 0) lines.push(`row ${index + 1}: ${changed.join(', ')}`);
    }
  }
  return lines;
}

/** A carriedOver confirmation as a reviewer reads it. */
function carriedText(confirmation: unknown): string {
  if (!confirmation) return 'not confirmed';
  const { taxYear, reviewedBy, reason } = confirmation as NonNullable<ValueDef['carriedOver']>;
  return `confirmed for ${taxYear} by ${reviewedBy} (${reason})`;
}

function valueText(value: ValueDef): string {
  const shown = value.rows ? `${value.rows.length} rows: ${value.rows.map(rowText).join('; ')}` : text(value.value);
  return `${period(value.effectivePeriod)}: ${shown}`;
}

function rowText(row: Record<string, unknown>): string {
  return Object.entries(row).map(([column, value]) => `${column} ${cell(value)}`).join(', ');
}

function cell(value: unknown): string {
  return value === null ? 'none' : value === undefined ? '(absent)' : String(value);
}
