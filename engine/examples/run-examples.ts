import type { ExampleDef } from '../model/pack.ts';
import { computeFacts } from '../run/evaluate.ts';
import type { CalculatorPlan } from '../run/plan.ts';

/** One expected figure that did not come out. */
export interface ExampleMismatch {
  factId: string;
  expected: unknown;
  actual: unknown;
}

export interface ExampleResult {
  example: ExampleDef;
  passed: boolean;
  mismatches: ExampleMismatch[];
  /** Why the example could not run at all, when it could not. */
  error?: string;
}

/** Runs each example against its calculator's plan and compares every expected figure. */
export function runExamples(examples: readonly ExampleDef[], plans: readonly CalculatorPlan[]): ExampleResult[] {
  return examples.map((example) => {
    const plan = plans.find((candidate) => candidate.def.id === example.calculator);
    if (!plan) return { example, passed: false, mismatches: [], error: `calculator \`${example.calculator}\` is not in this pack` };
    const outcome = computeFacts(plan, example.facts);
    if (!outcome.ok) {
      const error =
        outcome.failure === 'decode'
          ? `the facts do not decode: ${outcome.issues.map((issue) => `${issue.path.join('.') || 'facts'} ${issue.message}`).join('; ')}`
          : outcome.failure === 'calculation'
            ? outcome.message
            : 'the calculation timed out';
      return { example, passed: false, mismatches: [], error };
    }
    const mismatches: ExampleMismatch[] = [];
    for (const [factId, expected] of Object.entries(example.expect)) {
      if (!outcome.facts.has(factId)) {
        mismatches.push({ factId, expected, actual: '(not computed by this calculator)' });
        continue;
      }
      const actual = comparable(outcome.facts.get(factId));
      if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push({ factId, expected, actual });
    }
    return { example, passed: mismatches.length === 0, mismatches };
  });
}

/** Money compares as its integer cents; everything else as its JSON value. */
function comparable(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'Money') return (value as { cents: number }).cents;
  return value;
}
