import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Decimal, intermediatesBeforeRounding, runCalculator, type CalculatorPlan, type TraceNode } from '../../engine/index.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// The figures a correctness reviewer reads in a trace, between the facts and the result, checked
// against the worked examples the reference records with their intermediate steps. The conformance
// cases check only results; these check the weekly earnings, the weekly withholding before and after
// rounding, and the levy as the trace shows them. The packs work in cents, the examples in dollars.

interface WithholdingExample {
  taxYear: string;
  source: string;
  scale: 1 | 2;
  period: string;
  gross: string;
  x?: string;
  y?: string;
  weekly?: string;
  withheld: string;
}
interface LevyExample {
  taxYear: string;
  source: string;
  taxableIncome: string;
  levy: string;
}
const examples = JSON.parse(readFileSync(new URL('../fixtures/reference/worked-examples.json', import.meta.url), 'utf8')) as {
  withholding: WithholdingExample[];
  medicareLevy: LevyExample[];
};

const { catalog } = shippedPacks();
const cents = (dollars: string) => new Decimal(dollars).times(100);

function planOf(calculatorId: string, taxYear: string): CalculatorPlan {
  const plan = catalog.find(calculatorId, { jurisdiction: 'AU', taxYear });
  if (!plan) throw new Error(`no ${calculatorId} for ${taxYear}`);
  return plan;
}

/** The trace node of a rule, wherever it is in the tree (the shipped packs' rule ids). */
function nodeOf(root: TraceNode, ruleId: string): TraceNode {
  const pending = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.ruleId === ruleId) return node;
    pending.push(...node.children);
  }
  throw new Error(`the trace has no ${ruleId} node`);
}

function traceOf(plan: CalculatorPlan, facts: unknown): TraceNode {
  const outcome = runCalculator(plan, facts);
  if (!outcome.ok) throw new Error(`${plan.def.id} failed: ${JSON.stringify(outcome)}`);
  return (JSON.parse(outcome.json.toString()) as { trace: TraceNode }).trace;
}

/** A trace's decimal string, compared as a number of cents with the example's dollars. */
function assertCents(shown: unknown, dollars: string, what: string): void {
  assert.type(shown, 'string', `${what}: the trace shows no value`);
  assert.ok(new Decimal(shown as string).eq(cents(dollars)), `${what}: the trace shows ${String(shown)} cents, the example $${dollars}`);
}

for (const example of examples.withholding) {
  test(`withholding ${example.taxYear}, scale ${example.scale}, $${example.gross} ${example.period}: ${example.source}`, () => {
    const plan = planOf('au.pay.withholdings', example.taxYear);
    const facts = payFacts(cents(example.gross).toNumber(), example.period, example.scale === 2);
    const node = nodeOf(traceOf(plan, facts), 'payg-withholding');
    const intermediate = node.inputs.intermediate ?? {};
    if (example.x) assertCents(intermediate.weeklyEarnings, example.x, 'x, the weekly earnings');
    if (example.weekly) assertCents(intermediate.weeklyWithholding, example.weekly, 'the rounded weekly withholding');
    if (example.y) assertCents(intermediatesBeforeRounding(plan, facts)?.get('payg-withholding')?.weeklyWithholding, example.y, 'y, before rounding');
    assert.equal(node.result, money(cents(example.withheld).toNumber()));
  });
}

for (const example of examples.medicareLevy) {
  test(`Medicare levy ${example.taxYear} on $${example.taxableIncome}: ${example.source}`, () => {
    const plan = planOf('au.income-tax.annual', example.taxYear);
    const node = nodeOf(traceOf(plan, { taxableIncome: money(cents(example.taxableIncome).toNumber()) }), 'medicare-levy');
    assert.equal(node.result, money(cents(example.levy).toNumber()));
  });
}

test.run();
