import type { SourceRef } from '../contract/shapes.ts';
import type { Decimal } from '../money/decimal.ts';
import type { EffectivePeriod, ParameterUnit, TableSpec } from '../model/pack.ts';


/** One row of a bracket table, in internal units (money in cents), with its display form. */
export interface TableRow {
  index: number;
  /** The row's bound in cents; null for an open-ended last row. */
  bound: Decimal | null;
  cells: Readonly<Record<string, Decimal | boolean | null>>;
  /** For marginal (`from`) tables: the amount due on everything below this row's bound, in cents. */
  amountBelow: Decimal | null;
  /** The row as written in the pack, for traces. */
  display: Readonly<Record<string, unknown>>;
}

/** A bracket table value, as an expression sees it. */
export class TableValue {
  constructor(
    readonly parameterIndex: number,
    readonly spec: TableSpec,
    readonly rows: readonly TableRow[],
  ) {}
}

/** The row a `bracket` lookup matched. */
export class RowValue {
  constructor(
    readonly table: TableValue,
    readonly row: TableRow,
  ) {}
}

/** A parameter resolved for one calculator's context: the single value in effect for its whole period. */
export interface ResolvedParameter {
  id: string;
  title: string;
  unit: ParameterUnit;
  effectivePeriod: EffectivePeriod;
  sourceId: string;
  source: SourceRef;
  /** Scalar value in internal units (money in cents), or the table. */
  value: Decimal | boolean | TableValue;
  /** The value as written in the pack, for traces and docs. */
  display: unknown;
}

/** A record fact's value: named fields, no prototype so that no key can reach Object.prototype. */
export type RecordValue = { readonly [field: string]: Value };

/** Every value an expression can produce or read. */
export type Value = Decimal | boolean | string | null | TableValue | RowValue | RecordValue;

/** A parameter read during one rule evaluation, kept for the trace. */
export interface ParameterRead {
  parameterIndex: number;
  /** The matched row for table lookups. */
  row?: TableRow;
}

/** Everything one evaluation of one rule's expression can see. */
export interface Scope {
  facts: Value[];
  parameters: readonly ResolvedParameter[];
  lets: Value[];
  reads: ParameterRead[];
  /** When present, a `let` value that is rounded keeps here, by slot, the amount before its rounding. */
  letsBeforeRounding?: Value[];
}

/** A failure while evaluating an expression: a reason that is safe to show (no input values). */
export class EvaluationFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
