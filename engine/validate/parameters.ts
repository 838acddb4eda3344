import { Decimal } from '../money/decimal.ts';
import { PACK_LIMITS } from '../model/limits.ts';
import { suggest } from '../model/suggest.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import { inForceDuring, inForceThroughout } from '../run/parameters.ts';
import type { PackDef, ParameterDef, RawScalar, SourceDef, ValueUnit } from '../model/pack.ts';

/** Checks a parameter's values: periods, overlaps, units, table rows and the kind of source behind each value. */
export function checkParameterValues(parameter: ParameterDef, sources: ReadonlyMap<string, SourceDef>): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const subject = `parameter \`${parameter.id}\``;
  const isTable = parameter.unit === 'bracket-table';
  if (isTable && !parameter.table) {
    diagnostics.push({ kind: 'value', message: `${subject} is a bracket-table but has no \`table\` description`, location: parameter.at });
  }
  if (!isTable && parameter.table) {
    diagnostics.push({ kind: 'value', message: `${subject} has a \`table\` description but its unit is \`${parameter.unit}\``, location: parameter.at });
  }

  for (const [valueIndex, value] of parameter.values.entries()) {
    const { from, toExclusive } = value.effectivePeriod;
    if (toExclusive !== null && toExclusive <= from) {
      diagnostics.push({ kind: 'value', message: `${subject}: the period from ${from} must end after it starts (toExclusive ${toExclusive})`, location: value.at });
    }
    const source = sources.get(value.source);
    if (source?.kind === 'internal-validation') {
      diagnostics.push({
        kind: 'parameter-source-mismatch',
        message: `${subject}: the value from ${from} cites \`${source.id}\`, an internal-validation source; a figure must rest on a publication, legislation or regulation`,
        location: value.sourceAt,
      });
    }
    if (isTable) {
      if (value.rows === undefined) diagnostics.push({ kind: 'value', message: `${subject}: a bracket-table value needs \`rows\`, not \`value\``, location: value.at });
      else if (parameter.table) diagnostics.push(...checkRows(parameter, value.rows, (path, key) => parameter.locate(['values', valueIndex, 'rows', ...path], { key })));
    } else if (value.value === undefined) {
      diagnostics.push({ kind: 'value', message: `${subject}: a ${parameter.unit} parameter needs \`value\`, not \`rows\``, location: value.at });
    } else {
      const problem = unitProblem(parameter.unit as ValueUnit, value.value);
      if (problem) diagnostics.push({ kind: 'value', message: `${subject}: the value from ${from} ${problem}`, location: value.at });
    }
  }

  const ordered = [...parameter.values].sort((a, b) => a.effectivePeriod.from.localeCompare(b.effectivePeriod.from));
  for (let index = 1; index < ordered.length; index++) {
    const earlier = ordered[index - 1]!;
    const later = ordered[index]!;
    const earlierEnd = earlier.effectivePeriod.toExclusive;
    if (earlierEnd === null || earlierEnd > later.effectivePeriod.from) {
      diagnostics.push({
        kind: 'parameter-overlap',
        message: `${subject}: the value from ${later.effectivePeriod.from} overlaps the value from ${earlier.effectivePeriod.from} (which runs ${earlierEnd === null ? 'without end' : `until ${earlierEnd}`})`,
        location: later.at,
      });
    }
  }
  return diagnostics;
}

/**
 * A calculation reads the value of a parameter in force on the day it is for: one value for the whole
 * of the pack's tax year, or values one after another that leave no day of the year without one (a
 * calculator that reads such a parameter names the date fact that chooses, see plan.ts). A parameter
 * that leaves a day of the year uncovered is reported when the pack is checked, each such parameter
 * on its own, with the values it has, the days uncovered and what to add.
 */
export function checkParameterCoversYear(parameter: ParameterDef, taxYear: PackDef['taxYear']): Diagnostic[] {
  const { id, from, toExclusive } = taxYear;
  if (parameter.values.some((value) => inForceThroughout(value, taxYear))) return [];
  const runs = (value: ParameterDef['values'][number]) => `from ${value.effectivePeriod.from} ${value.effectivePeriod.toExclusive === null ? 'without end' : `until ${value.effectivePeriod.toExclusive}`}`;
  const within = parameter.values.filter((value) => inForceDuring(value, taxYear)).sort((a, b) => a.effectivePeriod.from.localeCompare(b.effectivePeriod.from));
  const uncovered = uncoveredDays(within, taxYear);
  if (within.length > 0 && uncovered.length === 0) return [];
  const found =
    parameter.values.length === 0
      ? 'it has no values'
      : within.length === 0
        ? `none of its values (${parameter.values.map(runs).join('; ')}) falls in it`
        : `its values cover only part of it (${within.map(runs).join('; ')})`;
  return [
    {
      kind: 'parameter-gap',
      message:
        `parameter \`${parameter.id}\` has no value in force for the whole ${id} tax year (${from} until ${toExclusive}): ${found}. ` +
        `Fix: add a value whose effectivePeriod covers the whole year, e.g. \`{ from: ${from}, toExclusive: null }\`, with the source it comes from ` +
        `(or, if the figure carries over unchanged, extend the period of the value before)`,
      location: parameter.valuesAt,
    },
  ];
}

/** The stretches of a period that none of the values (in order of their start) is in force on. */
function uncoveredDays(values: readonly ParameterDef['values'][number][], period: { from: string; toExclusive: string }): { from: string; toExclusive: string }[] {
  const gaps: { from: string; toExclusive: string }[] = [];
  let coveredTo: string | null = period.from;
  for (const { effectivePeriod } of values) {
    if (coveredTo === null) break;
    if (effectivePeriod.from > coveredTo) gaps.push({ from: coveredTo, toExclusive: effectivePeriod.from });
    if (effectivePeriod.toExclusive === null || effectivePeriod.toExclusive > coveredTo) coveredTo = effectivePeriod.toExclusive;
  }
  if (coveredTo !== null && coveredTo < period.toExclusive) gaps.push({ from: coveredTo, toExclusive: period.toExclusive });
  return gaps;
}

/** Where a path inside the rows was written: a row (`[index]`), or a column's key in it (`[index, column]`, key true). */
type RowLocator = (path: (string | number)[], key?: boolean) => Diagnostic['location'];

function checkRows(parameter: ParameterDef, rows: Record<string, RawScalar>[], locate: RowLocator): Diagnostic[] {
  const table = parameter.table!;
  const subject = `parameter \`${parameter.id}\``;
  if (rows.length > PACK_LIMITS.tableRows) {
    const message = `${subject}: this table has ${rows.length} rows; a table may have at most ${PACK_LIMITS.tableRows}`;
    return [{ kind: 'value', message, location: locate([PACK_LIMITS.tableRows]) }];
  }
  const problems: { message: string; location: Diagnostic['location'] }[] = [];
  const expectedKeys = [table.bound, ...Object.keys(table.columns)];
  let previous: Decimal | undefined;
  rows.forEach((row, index) => {
    const name = `row ${index + 1}`;
    const at = locate([index]);
    const report = (message: string) => problems.push({ message, location: at });
    // A misspelt column is one mistake: reported where it is written, with the column it stands for, and not again as missing.
    const misspelt = new Set<string>();
    for (const key of Object.keys(row)) {
      if (expectedKeys.includes(key)) continue;
      const meant = suggest(key, expectedKeys.filter((expected) => !(expected in row)));
      if (meant) misspelt.add(meant);
      problems.push({ message: `${name} has unknown column \`${key}\`${meant ? `; did you mean \`${meant}\`?` : ''} (columns: ${expectedKeys.join(', ')})`, location: locate([index, key], true) });
    }
    for (const key of expectedKeys) if (!(key in row) && !misspelt.has(key)) report(`${name} is missing \`${key}\``);
    const bound = row[table.bound];
    const isLast = index === rows.length - 1;
    if (bound === null) {
      if (table.bound === 'from' || !isLast) report(`${name}: only the last row of a \`${table.bound}\` table may be open-ended (null)`);
    } else if (bound !== undefined) {
      const problem = unitProblem(table.boundUnit, bound);
      if (problem) report(`${name}: \`${table.bound}\` ${problem}`);
      else {
        const value = new Decimal(String(bound));
        if (previous && value.lte(previous)) report(`${name}: bounds must increase from row to row`);
        if (index === 0 && table.bound === 'from' && !value.isZero()) report(`${name}: a \`from\` table must start from 0`);
        previous = value;
      }
    }
    for (const [column, unit] of Object.entries(table.columns)) {
      const cell = row[column];
      if (cell === undefined) continue;
      const problem = cell === null ? 'is empty' : unitProblem(unit, cell);
      if (problem) report(`${name}: \`${column}\` ${problem}`);
    }
  });
  return problems.map((problem) => ({ kind: 'value' as const, message: `${subject}: ${problem.message}`, location: problem.location }));
}

/** Why a raw value does not fit a unit, or undefined when it does. */
export function unitProblem(unit: ValueUnit, value: RawScalar): string | undefined {
  if (unit === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (typeof value === 'boolean' || value === null) return 'must be a number';
  let decimal: Decimal;
  try {
    decimal = new Decimal(String(value));
  } catch {
    return 'must be a number';
  }
  if ((unit === 'cents' || unit === 'count') && !decimal.isInteger()) return `must be a whole number of ${unit}`;
  return undefined;
}
