import { performance } from 'node:perf_hooks';
import { calculatorEntry, jsonText, runCalculator, type Catalog, type CalculatorPlan, type InputIssue, type ReportFrame } from '../../engine/index.ts';
import type { CalculationDiagnostics } from '../openapi/calculation-schemas.ts';

/** A calculation to run: which calculator (already resolved to its context) and the raw facts. */
export interface CalculationRequest {
  calculatorId: string;
  jurisdiction: string;
  taxYear: string;
  facts: unknown;
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

/** Runs one calculation against a catalog within a budget, producing the response body on success. */
export function calculate(catalog: Catalog, request: CalculationRequest, budgetMs: number): CalculationResult {
  const plan = catalog.find(request.calculatorId, { jurisdiction: request.jurisdiction, taxYear: request.taxYear });
  if (!plan) return { kind: 'unavailable' };
  const outcome = runCalculator(plan, request.facts, { deadline: performance.now() + budgetMs, frame: responseFrame(plan) });
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
