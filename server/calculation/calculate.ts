import { performance } from 'node:perf_hooks';
import { calculatorEntry, jsonText, runCalculator, type Catalog, type CalculatorPlan, type InputIssue } from '../../engine/index.ts';
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
  | { kind: 'ok'; body: string }
  | { kind: 'decode'; issues: InputIssue[] }
  | { kind: 'calculation'; message: string; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'unavailable' };

/** Served packs have no graph issues: a pack with any does not get past boot. */
const NO_GRAPH_ISSUES: CalculationDiagnostics = { _tag: 'CalculationDiagnostics', graphIssues: [] };

/** Serialised parts of a response that never change for a plan, made once. */
const prefixes = new WeakMap<CalculatorPlan, string>();

/** The answer up to its report: `{"calculator":…,"diagnostics":…,"report":`, in ASCII like the report. */
function responsePrefix(plan: CalculatorPlan): string {
  let prefix = prefixes.get(plan);
  if (!prefix) {
    const head = jsonText({ calculator: calculatorEntry(plan), diagnostics: NO_GRAPH_ISSUES });
    prefix = `${head.slice(0, -1)},"report":`;
    prefixes.set(plan, prefix);
  }
  return prefix;
}

/** Runs one calculation against a catalog within a budget, producing the response body on success. */
export function calculate(catalog: Catalog, request: CalculationRequest, budgetMs: number): CalculationResult {
  const plan = catalog.find(request.calculatorId, { jurisdiction: request.jurisdiction, taxYear: request.taxYear });
  if (!plan) return { kind: 'unavailable' };
  const outcome = runCalculator(plan, request.facts, { deadline: performance.now() + budgetMs });
  if (outcome.ok) return { kind: 'ok', body: `${responsePrefix(plan)}${outcome.json}}` };
  switch (outcome.failure) {
    case 'decode':
      return { kind: 'decode', issues: outcome.issues.map((issue) => ({ path: ['facts', ...issue.path], message: issue.message })) };
    case 'calculation':
      return { kind: 'calculation', message: outcome.message, cause: outcome.cause };
    case 'timeout':
      return { kind: 'timeout' };
  }
}
