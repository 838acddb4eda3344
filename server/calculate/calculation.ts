import { performance } from 'node:perf_hooks';
import { answerFrame, runCalculator, type Catalog, type CalculatorPlan, type InputIssue } from '../../engine/index.ts';

/** A calculation to run: the plan the request resolved to (found once, by the route) and the raw facts. */
export interface CalculationRequest {
  plan: CalculatorPlan;
  facts: unknown;
}

/**
 * What names a plan across threads: a plan holds functions and cannot be sent to a calculation
 * worker, so a worker finds it in its own catalog by this key (planKeyOf, then findPlan).
 */
export interface PlanKey {
  calculatorId: string;
  jurisdiction: string;
  taxYear: string;
}

export function planKeyOf(plan: CalculatorPlan): PlanKey {
  return { calculatorId: plan.def.id, jurisdiction: plan.context.jurisdiction, taxYear: plan.context.taxYear };
}

export function findPlan(catalog: Catalog, key: PlanKey): CalculatorPlan | undefined {
  return catalog.find(key.calculatorId, { jurisdiction: key.jurisdiction, taxYear: key.taxYear });
}

/** What a calculation came to; `ok` carries the finished response body, all of it ASCII. */
export type CalculationResult =
  | { kind: 'ok'; body: Buffer }
  | { kind: 'decode'; issues: InputIssue[] }
  | { kind: 'calculation'; message: string; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'unavailable' };

/** Runs one calculation within a budget, producing the response body on success. */
export function calculate({ plan, facts }: CalculationRequest, budgetMs: number): CalculationResult {
  const outcome = runCalculator(plan, facts, { deadline: performance.now() + budgetMs, frame: answerFrame(plan) });
  if (outcome.ok) return { kind: 'ok', body: outcome.json };
  switch (outcome.failure) {
    case 'decode':
      return { kind: 'decode', issues: outcome.issues.map((issue) => ({ path: ['facts', ...issue.path], message: issue.message })) };
    case 'calculation':
      return { kind: 'calculation', message: outcome.message, cause: outcome.cause };
    case 'timeout':
      return { kind: 'timeout' };
  }
}
