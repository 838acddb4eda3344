import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { declaredPack, loadPack, type LoadOptions } from '../load/load-pack.ts';
import { Decimal } from '../money/decimal.ts';
import type { SourceLocation } from '../model/diagnostics.ts';
import type { PackDef, ParameterDef, ParameterValueDef, RawScalar } from '../model/pack.ts';

// A new year's pack starts as a copy of the year before, and a value whose period is open-ended
// carries on into the new year: the copy is valid at once, with last year's figures. So each value
// in force at the start of a pack's year that is identical to the value the previous pack of its
// family had in force at the end of that pack's year is listed, until a reviewer confirms it for this
// year (`carriedOver`). The previous pack is the one it was copied from: of the packs in the same
// family folder with a lower version, the one with the latest tax year before this one. A pack added
// later for an earlier year has none, so it is never compared with a year after its own.

/** Something a reviewer should look at; unlike a diagnostic, it does not stop a pack being served. */
export interface Notice {
  kind: 'carried-value';
  message: string;
  location: SourceLocation;
}

/** The previous pack's version and year, and the notices for the values carried from it. */
export interface CarriedValues {
  previous?: { id: string; version: string; taxYear: string };
  notices: Notice[];
}

/**
 * The values of a pack carried unchanged from the previous pack of its family (found beside it, in
 * the family's folder), each unconfirmed one as a notice; and each confirmation for this pack's year
 * that confirms no such value.
 */
export function carriedValues(pack: PackDef, options: LoadOptions = {}): CarriedValues {
  const previousDir = previousPackDir(pack, options);
  const previous = previousDir ? loadPack(previousDir, { ...options, examples: false }).pack : undefined;
  const notices: Notice[] = [];
  const name = previous && `${previous.id}/${previous.version} (${previous.taxYear.id})`;
  for (const parameter of pack.parameters) {
    if (!parameter.wellFormed) continue;
    const current = valueAtStart(parameter, pack.taxYear);
    const before = previous?.parameters.find((candidate) => candidate.id === parameter.id && candidate.wellFormed);
    const carried = current && before && sameMeaning(parameter, before) && sameFigures(current, valueAtEnd(before, previous!.taxYear));
    if (carried && current.carriedOver?.taxYear !== pack.taxYear.id) {
      notices.push({ kind: 'carried-value', message: carriedMessage(parameter, current, pack, name!), location: current.at });
    }
    for (const value of parameter.values) {
      if (value.carriedOver?.taxYear !== pack.taxYear.id || (carried && value === current)) continue;
      const why = !previous
        ? `this pack has no previous pack to carry it from (a pack of ${pack.id} with a lower version and an earlier year)`
        : value !== current
          ? `it is not the value in force from ${pack.taxYear.from}`
          : `its figures are not those ${name} used`;
      notices.push({
        kind: 'carried-value',
        message: `parameter \`${parameter.id}\`: the value ${period(value)} is confirmed as carried into ${pack.taxYear.id} (carriedOver), but ${why}. Remove its carriedOver, or move it to the value carried over`,
        location: value.at,
      });
    }
  }
  return { ...(previous ? { previous: { id: previous.id, version: previous.version, taxYear: previous.taxYear.id } } : {}), notices };
}

function carriedMessage(parameter: ParameterDef, value: ParameterValueDef, pack: PackDef, previous: string): string {
  const { id: year, from } = pack.taxYear;
  const confirmed = value.carriedOver ? ` Its carriedOver confirms ${value.carriedOver.taxYear}, not ${year}.` : '';
  return (
    `parameter \`${parameter.id}\`: the value ${period(value)} is carried into ${year} unchanged from ${previous}.${confirmed} ` +
    `Update it (close it at ${from} and add the new value with its source) or, once reviewed, confirm it with ` +
    `\`carriedOver: { taxYear: ${year}, reviewedBy: <who>, reason: <why it still applies> }\``
  );
}

function period(value: ParameterValueDef): string {
  const { from, toExclusive } = value.effectivePeriod;
  return `from ${from} ${toExclusive === null ? 'without end' : `until ${toExclusive}`}`;
}

/**
 * The folder of the pack this one was copied from: beside it in its family's folder, with the same
 * id, a lower version and the latest tax year before this one's.
 */
function previousPackDir(pack: PackDef, options: LoadOptions): string | undefined {
  const family = dirname(pack.dir);
  let found: { dir: string; from: string } | undefined;
  for (const entry of readdirSync(family, { withFileTypes: true })) {
    const dir = join(family, entry.name);
    if (!entry.isDirectory() || dir === pack.dir || !existsSync(join(dir, 'pack.yaml'))) continue;
    const declared = declaredPack(dir, options);
    if (!declared || declared.id !== pack.id || compareVersions(declared.version, pack.version) >= 0) continue;
    if (declared.taxYear.from >= pack.taxYear.from) continue;
    if (!found || declared.taxYear.from > found.from) found = { dir, from: declared.taxYear.from };
  }
  return found?.dir;
}

/** Compares dotted versions number by number: negative when a comes first. */
function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** The value in force on the first day of the year. */
function valueAtStart(parameter: ParameterDef, year: PackDef['taxYear']): ParameterValueDef | undefined {
  return parameter.values.find(({ effectivePeriod: { from, toExclusive } }) => from <= year.from && (toExclusive === null || toExclusive > year.from));
}

/** The value in force on the last day of the year (periods are half-open: it ends after that day). */
function valueAtEnd(parameter: ParameterDef, year: PackDef['taxYear']): ParameterValueDef | undefined {
  return parameter.values.find(({ effectivePeriod: { from, toExclusive } }) => from < year.toExclusive && (toExclusive === null || toExclusive >= year.toExclusive));
}

/** The same unit and table layout, so that the same figures mean the same thing. */
function sameMeaning(a: ParameterDef, b: ParameterDef): boolean {
  return a.unit === b.unit && JSON.stringify(a.table ?? null) === JSON.stringify(b.table ?? null);
}

/** The same value, or the same rows with the same cells; numbers compared as decimals ("0.30" is 0.3). */
function sameFigures(a: ParameterValueDef, b: ParameterValueDef | undefined): boolean {
  if (!b) return false;
  if (a.rows || b.rows) {
    if (!a.rows || !b.rows || a.rows.length !== b.rows.length) return false;
    return a.rows.every((row, index) => {
      const other = b.rows![index]!;
      const columns = Object.keys(row);
      return columns.length === Object.keys(other).length && columns.every((column) => column in other && sameScalar(row[column], other[column]));
    });
  }
  return sameScalar(a.value, b.value);
}

function sameScalar(a: RawScalar | undefined, b: RawScalar | undefined): boolean {
  if (typeof a === 'number' || typeof a === 'string') {
    if (typeof b !== 'number' && typeof b !== 'string') return false;
    try {
      return new Decimal(String(a)).eq(new Decimal(String(b)));
    } catch {
      return a === b;
    }
  }
  return a === b;
}
