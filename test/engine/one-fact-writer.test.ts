import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { computeFacts, runCalculator } from '../../engine/index.ts';
import { shippedPacks } from '../helpers/packs.ts';

// The worked examples are checked with computeFacts, so its values must be the very text the API's
// reports carry: each derived fact's value equals the `result` of the trace node of the rule that
// derives it, in the report of the same run.

/** Every trace node of a report, by rule id. */
function traceResults(value: unknown, found = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) for (const item of value) traceResults(item, found);
  else if (typeof value === 'object' && value !== null) {
    const node = value as Record<string, unknown>;
    if (node._tag === 'TraceNode') found.set(node.ruleId as string, node.result);
    for (const child of Object.values(node)) traceResults(child, found);
  }
  return found;
}

test("every shipped example's derived facts are written as its report's trace writes them", () => {
  let compared = 0;
  for (const report of shippedPacks().loaded.packs) {
    for (const example of report.pack.examples.slice(0, 40)) {
      const plan = report.plans.find((candidate) => candidate.def.id === example.calculator)!;
      const facts = computeFacts(plan, example.facts);
      const answer = runCalculator(plan, example.facts);
      assert.ok(facts.ok && answer.ok, example.name);
      const results = traceResults(JSON.parse(answer.json.toString()));
      const chosen = plan.byDate ? plan.byDate.parts.find((part) => part.period.from <= (example.facts as Record<string, string>)[plan.byDate!.factId]! && (example.facts as Record<string, string>)[plan.byDate!.factId]! < part.period.toExclusive)! : plan;
      for (const step of chosen.steps) {
        if (!results.has(step.rule.id)) continue;
        assert.equal(facts.facts.get(step.outputFact.id), results.get(step.rule.id), `${example.name}: ${step.outputFact.id}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 100, `compared ${compared}`);
});

test.run();
