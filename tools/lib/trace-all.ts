import { planWithReport, runCalculator, type CalculatorPlan, type TraceNode } from '../../engine/index.ts';

/** The trace node of every step a calculator ran, in run order; or why it could not run. */
export type StepTraces = { ok: true; nodes: TraceNode[] } | { ok: false; error: string };

/**
 * Runs a calculator and returns a trace node for every one of its steps. A calculator's own report
 * traces only the facts its template names (the annual report does not trace `liability`), so the
 * run uses a copy of the plan whose report template names one trace per step; everything else about
 * the plan, and so the calculation, is unchanged.
 */
export function traceEveryStep(plan: CalculatorPlan, facts: unknown): StepTraces {
  const fields = Object.fromEntries(plan.steps.map((step) => [`step${step.index}`, { trace: step.outputFact.id }]));
  const outcome = runCalculator(planWithReport(plan, { tag: 'EveryStep', fields }), facts);
  if (!outcome.ok) {
    if (outcome.failure === 'decode') return { ok: false, error: `the facts do not decode: ${outcome.issues.map((issue) => `${issue.path.join('.') || 'facts'} ${issue.message}`).join('; ')}` };
    return { ok: false, error: outcome.failure === 'calculation' ? outcome.message : 'the calculation timed out' };
  }
  const report = JSON.parse(outcome.json.toString()) as Record<string, TraceNode>;
  return { ok: true, nodes: plan.steps.map((step) => report[`step${step.index}`]!) };
}
