import { performance } from 'node:perf_hooks';
import { calculatorEntry, jsonText, runCalculator, type Catalog, type CalculatorPlan, type InputIssue, type ReportFrame } from '../../engine/index.ts';
import type { CalculationDiagnostics } from '../openapi/calculation-schemas.ts';

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

/** Served packs have no graph issues: a pack with any does not get past boot. */
const NO_GRAPH_ISSUES: CalculationDiagnostics = { _tag: 'CalculationDiagnostics', graphIssues: [] };

/** The bytes of an answer around its report, which never change for a plan, made once. */
const frames = new WeakMap<CalculatorPlan, ReportFrame>();

/** The answer around its report: `{"calculator":…,"diagnostics":…,"report":` and `}`, in ASCII like the report. */
function responseFrame(plan: CalculatorPlan): ReportFrame {
  let frame = frames.get(plan);
  if (!frame) {
    const head = jsonText({ calculator: calculatorEntry(plan), diagnostics: NO_GRAPH_ISSUES });
    frame = { before: Buffer.from(`${head.slice(0, -1)},"report":`, 'latin1'), after: Buffer.from('}', 'latin1') };
    frames.set(plan, frame);
  }
  return frame;
}

/** Runs one calculation within a budget, producing the response body on success. */
export function calculate({ plan, facts }: CalculationRequest, budgetMs: number): CalculationResult {
  const outcome = runCalculator(plan, facts, { deadline: performance.now() + budgetMs, frame: responseFrame(plan) });
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
