import { intermediatesBeforeRounding, type CalculatorPlan, type TraceNode } from '../../engine/index.ts';
import { traceEveryStep } from '../lib/trace-all.ts';
import { figureLines, isTraceNode } from './figures.ts';
import { traceLines } from './tree.ts';

/** The text explain prints for a report: heading, figures, the trace tree, then any step the report does not trace. */
export function explanation(plan: CalculatorPlan, report: Record<string, unknown>, facts: unknown): string {
  const sources = new Map(plan.pack.sources.map((source) => [source.id, source]));
  const sourceOf = (id: string) => sources.get(id);
  const printed = new Set<string>();
  const beforeRounding = intermediatesBeforeRounding(plan, facts) ?? new Map();
  const trace = traceRoots(report).flatMap((node) => (printed.has(node.ruleId) ? [] : traceLines(node, sourceOf, printed, beforeRounding)));
  // A report traces only what its template names (the annual report does not trace `liability`):
  // the steps it leaves out are shown after it, so that every step of the calculation is explained.
  const everyStep = traceEveryStep(plan, facts);
  const rest = (everyStep.ok ? everyStep.nodes : []).flatMap((node) => (printed.has(node.ruleId) ? [] : traceLines(node, sourceOf, printed, beforeRounding)));
  const lines = [
    `${plan.def.title} (${plan.def.id}), ${plan.context.jurisdiction} ${plan.context.taxYear}, rule pack ${plan.rulePackVersion}`,
    '',
    'Figures',
    ...figureLines(report),
    '',
    'Trace',
    ...trace,
    ...(rest.length > 0 ? ['', 'Steps the report does not trace', ...rest] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Every trace node the report holds, shallowest first, so the report's main trace comes before the parts of it that fields repeat. */
function traceRoots(report: Record<string, unknown>): TraceNode[] {
  const found: TraceNode[] = [];
  let level: unknown[] = [report];
  while (level.length > 0) {
    const next: unknown[] = [];
    for (const value of level) {
      if (isTraceNode(value)) found.push(value as TraceNode);
      else if (typeof value === 'object' && value !== null) next.push(...Object.values(value));
    }
    level = next;
  }
  return found;
}
