import { Decimal, HUNDRED, ZERO } from '../money/decimal.ts';
import type { ParameterDef, ParameterValueDef, RawScalar, SourceDef, ValueUnit } from '../model/pack.ts';
import type { SourceRef } from '../contract/shapes.ts';
import { TableValue, type ResolvedParameter, type TableRow } from '../expressions/values.ts';

/** The API form of a declared source. */
export function sourceRefOf(source: SourceDef): SourceRef {
  return Object.freeze({ _tag: 'SourceRef', kind: source.kind, reference: source.reference, title: source.title });
}

/**
 * The written value in effect for the whole of a period (a pack's tax year): the first whose
 * effective period covers all of it. Undefined when none does (a gap, or a change part-way through).
 */
export function valueInEffect(parameter: ParameterDef, period: { from: string; toExclusive: string }): ParameterValueDef | undefined {
  return parameter.values.find((value) => inForceThroughout(value, period));
}

/** The parameter's value for a period, resolved for evaluation: the value in effect for all of it, with its source. */
export function resolveParameter(
  parameter: ParameterDef,
  period: { from: string; toExclusive: string },
  sources: ReadonlyMap<string, SourceDef>,
  parameterIndex: number,
): ResolvedParameter | undefined {
  const entry = valueInEffect(parameter, period);
  const source = entry && sources.get(entry.source);
  if (!entry || !source) return undefined;
  const common = {
    id: parameter.id,
    title: parameter.title,
    unit: parameter.unit,
    effectivePeriod: { from: entry.effectivePeriod.from, toExclusive: entry.effectivePeriod.toExclusive },
    sourceId: source.id,
    source: sourceRefOf(source),
  };
  if (parameter.unit === 'bracket-table') {
    const spec = parameter.table!;
    const rows: TableRow[] = [];
    let amountBelow = ZERO;
    (entry.rows ?? []).forEach((raw, index) => {
      const bound = raw[spec.bound] === null ? null : toInternal(spec.boundUnit, raw[spec.bound]!) as Decimal;
      const cells: Record<string, Decimal | boolean | null> = {};
      for (const [column, unit] of Object.entries(spec.columns)) cells[column] = raw[column] === null ? null : toInternal(unit, raw[column]!);
      if (spec.bound === 'from' && index > 0) {
        const previous = rows[index - 1]!;
        amountBelow = amountBelow.add((previous.cells.rate as Decimal).mul(bound!.sub(previous.bound!)));
      }
      rows.push(
        Object.freeze({
          index,
          bound,
          cells: Object.freeze(cells),
          amountBelow: spec.bound === 'from' ? amountBelow : null,
          display: Object.freeze({ ...raw }),
        }),
      );
    });
    return { ...common, value: new TableValue(parameterIndex, spec, rows), display: rows.map((row) => row.display) };
  }
  return { ...common, value: toInternal(parameter.unit, entry.value!), display: entry.value };
}

/** Whether a value is in effect on some day of the given period. */
export function inForceDuring(value: ParameterValueDef, period: { from: string; toExclusive: string }): boolean {
  const { from, toExclusive } = value.effectivePeriod;
  return from < period.toExclusive && (toExclusive === null || toExclusive > period.from);
}

/** The days strictly inside a period on which one of the parameters' values starts or stops, in order. */
export function changesWithin(parameters: readonly ParameterDef[], period: { from: string; toExclusive: string }): string[] {
  const days = new Set<string>();
  for (const parameter of parameters) {
    for (const { effectivePeriod } of parameter.values) {
      for (const day of [effectivePeriod.from, effectivePeriod.toExclusive]) if (day !== null && day > period.from && day < period.toExclusive) days.add(day);
    }
  }
  return [...days].sort();
}

/** Whether a value's effective period covers all of the given period. */
export function inForceThroughout(value: ParameterValueDef, period: { from: string; toExclusive: string }): boolean {
  const { from, toExclusive } = value.effectivePeriod;
  return from <= period.from && (toExclusive === null || toExclusive >= period.toExclusive);
}

/** A written value in the engine's units: money in cents, everything numeric as an exact Decimal. */
function toInternal(unit: ValueUnit, raw: RawScalar): Decimal | boolean {
  if (unit === 'boolean') return raw === true;
  const value = new Decimal(String(raw));
  return unit === 'dollars' ? value.mul(HUNDRED) : value;
}
