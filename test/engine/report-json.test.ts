import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator, runCalculatorJson } from '../../engine/index.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// The service writes reports as JSON text directly; it must be exactly what JSON.stringify makes of
// the report object, for every calculator and input.
const { catalog } = shippedPacks();
const samples = JSON.parse(readFileSync(new URL('../fixtures/conformance/withholding-ato-samples.json', import.meta.url), 'utf8')).cases as {
  grossCents: number;
  period: string;
  taxFreeThresholdClaimed: boolean;
}[];

function same(calculatorId: string, facts: unknown): void {
  const plan = catalog.find(calculatorId)!;
  const object = runCalculator(plan, facts);
  const json = runCalculatorJson(plan, facts);
  assert.ok(object.ok && json.ok);
  if (object.ok && json.ok) assert.is(json.json, JSON.stringify(object.report));
}

test('pay reports: the JSON writer matches JSON.stringify on every published sample', () => {
  for (const sample of samples) {
    const facts = payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed);
    same('au.pay.take-home', facts);
    same('au.pay.withholdings', facts);
  }
});

test('all reports: the JSON writer matches JSON.stringify on random inputs', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom('weekly', 'fortnightly', 'monthly'), fc.boolean(), (cents, period, claimed) => {
      same('au.pay.take-home', payFacts(cents, period, claimed));
      same('au.income-tax.annual', { taxableIncome: money(cents) });
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('the same input gives byte-identical reports, run after run and interleaved with others', () => {
  const plan = catalog.find('au.pay.take-home')!;
  const facts = payFacts(270833, 'monthly', false);
  const first = runCalculatorJson(plan, facts);
  for (const other of [payFacts(1, 'weekly', true), payFacts(99999999, 'fortnightly', false)]) runCalculatorJson(plan, other);
  const again = runCalculatorJson(plan, structuredClone(facts));
  assert.ok(first.ok && again.ok);
  if (first.ok && again.ok) assert.is(again.json, first.json);
  assert.is(JSON.stringify(runCalculator(plan, facts)), JSON.stringify(runCalculator(plan, facts)));
});

test('failures are the same either way', () => {
  const plan = catalog.find('au.pay.take-home')!;
  assert.equal(runCalculatorJson(plan, { nope: 1 }), runCalculator(plan, { nope: 1 }));
});

test.run();
