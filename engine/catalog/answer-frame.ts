import { jsonText } from '../json/json-text.ts';
import type { ReportFrame } from '../run/evaluate.ts';
import type { CalculatorPlan } from '../run/plan.ts';
import { calculatorEntry } from './descriptors.ts';

/** The bytes of an answer around its report, which never change for a plan, made once. */
const frames = new WeakMap<CalculatorPlan, ReportFrame>();

/**
 * The calculate answer around a report: `{"calculator":…,"diagnostics":…,"report":` and `}`, in
 * ASCII like the report. The one definition of the answer's envelope, for the service and for
 * `explain --json`, which prints the service's answer byte for byte. Served packs have no graph
 * issues (a pack with any does not get past boot), so the diagnostics are always empty.
 */
export function answerFrame(plan: CalculatorPlan): ReportFrame {
  let frame = frames.get(plan);
  if (!frame) {
    const head = jsonText({ calculator: calculatorEntry(plan), diagnostics: { _tag: 'CalculationDiagnostics', graphIssues: [] } });
    frame = { before: Buffer.from(`${head.slice(0, -1)},"report":`, 'latin1'), after: Buffer.from('}', 'latin1') };
    frames.set(plan, frame);
  }
  return frame;
}
