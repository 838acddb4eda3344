import type { ParameterRead, Value } from '../expressions/values.ts';
import type { Decimal } from '../money/decimal.ts';

/** A ledger component's outcome in one run, in the order the rule lists its components. */
export interface ComponentResult {
  status: 'active' | 'zeroed';
  amount: Decimal;
}

/** What one rule evaluation left behind for the trace. */
export interface StepRecord {
  raw: Value;
  reads: ParameterRead[];
  lets: Value[];
  /** By `let` slot, rounded amounts before their rounding; only when the run asked for them. */
  letsBeforeRounding?: Value[];
  components?: ComponentResult[];
}

/** One run, as a report's fields read it. */
export interface ReportRun {
  values: readonly Value[];
  records: readonly StepRecord[];
  /** Writes a step's trace node: made once per report, copied where it is referenced again. */
  trace(step: number): void;
}
