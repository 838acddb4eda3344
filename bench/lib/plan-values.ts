import type { CalculatorPlan } from '../../engine/index.ts';
import type { Decimal } from '../../engine/index.ts';

/**
 * Read-only access to the values a loaded plan resolved for its tax year, so that bench code
 * never types a rate, threshold or coefficient of its own.
 */
export type PlanStep = CalculatorPlan['steps'][number];
export type ResolvedParameter = PlanStep['parameters'][number];

/** One row of a resolved bracket table, as the engine holds it (money in cents). */
export interface ResolvedRow {
  index: number;
  bound: Decimal | null;
  cells: Readonly<Record<string, Decimal | boolean | null>>;
}

/** The step of a plan whose rule provides a fact. */
export function stepProviding(plan: CalculatorPlan, factId: string): PlanStep {
  const index = plan.stepOfFact.get(factId);
  if (index === undefined) throw new Error(`${plan.def.id} has no rule providing ${factId}`);
  return plan.steps[index]!;
}

/** A parameter a step resolved, by id. */
export function parameterOf(step: PlanStep, parameterId: string): ResolvedParameter {
  const parameter = step.parameters.find((candidate) => candidate.id === parameterId);
  if (!parameter) throw new Error(`rule ${step.rule.id} reads no parameter ${parameterId}`);
  return parameter;
}

/** A scalar parameter's value in engine units (money in cents). */
export function scalarOf(step: PlanStep, parameterId: string): Decimal {
  const value = parameterOf(step, parameterId).value;
  if (typeof value === 'boolean' || !('isZero' in value)) throw new Error(`parameter ${parameterId} is not a number`);
  return value as Decimal;
}

/** A bracket-table parameter's rows and bound kind. */
export function tableOf(step: PlanStep, parameterId: string): { bound: 'below' | 'upTo' | 'from' | string; rows: readonly ResolvedRow[] } {
  const value = parameterOf(step, parameterId).value as unknown as { spec?: { bound: string }; rows?: readonly ResolvedRow[] };
  if (!value.spec || !value.rows) throw new Error(`parameter ${parameterId} is not a bracket table`);
  return { bound: value.spec.bound, rows: value.rows };
}

/** A numeric cell of a table row. */
export function cell(row: ResolvedRow, column: string): Decimal {
  const value = row.cells[column];
  if (value === null || value === undefined || typeof value === 'boolean') throw new Error(`row ${row.index + 1} has no number in column ${column}`);
  return value;
}
