import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PayFacts } from '../../bench/lib/direct.ts';
import { measureFor, median, runTimes } from '../../bench/lib/measure.ts';
import { loadShipped } from '../../bench/lib/packs.ts';
import { benchSetup, coverage, disagreements, scenarios } from '../../bench/lib/scenarios.ts';
import { mixedPayRunWork } from '../../bench/lib/inputs.ts';
import { payRunCpu } from '../../bench/lib/pay-run-cpu.ts';
import { startTestServer } from '../server/helpers.ts';

// The bench's own code, exercised briefly: no timing is asserted, only that it computes the right
// figures and that its loops run. Published figures come from the conformance fixtures.
const samples = JSON.parse(readFileSync(new URL('../fixtures/conformance/withholding-ato-samples.json', import.meta.url), 'utf8')) as {
  cases: { grossCents: number; period: string; taxFreeThresholdClaimed: boolean; withheldCents: number }[];
};
const journeys = JSON.parse(readFileSync(new URL('../fixtures/conformance/journeys.json', import.meta.url), 'utf8')) as {
  pay: { name: string; grossCents: number; period: string; taxFreeThresholdClaimed: boolean; withheldCents: number; netCents: number }[];
  annual: { name: string; taxableIncomeCents: number; incomeTax: number; lito: number; medicare: number; rawLiability: number; liability: number }[];
};

const { takeHome, annual } = loadShipped();
const setup = benchSetup(takeHome, annual, 512);

const money = (cents: number) => ({ _tag: 'Money' as const, cents, currency: 'AUD' });
const payFacts = (cents: number, period: string, taxFreeThresholdClaimed: boolean): PayFacts => ({
  grossPay: { _tag: 'GrossPay', amount: money(cents), period },
  taxFreeThresholdClaimed,
});

test('the direct take-home computation reproduces every published withholding sample and pay journey', () => {
  const wrong: string[] = [];
  for (const sample of samples.cases) {
    const figures = setup.directTakeHome.compute(payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed));
    if (figures.withholdingsTotal !== sample.withheldCents || figures.netPay !== sample.grossCents - sample.withheldCents) {
      wrong.push(`${sample.period} ${sample.grossCents} ${sample.taxFreeThresholdClaimed}: ${JSON.stringify(figures)}`);
    }
  }
  for (const journey of journeys.pay) {
    const figures = setup.directTakeHome.compute(payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed));
    if (figures.withholdingsTotal !== journey.withheldCents || figures.netPay !== journey.netCents) wrong.push(`${journey.name}: ${JSON.stringify(figures)}`);
  }
  assert.ok(samples.cases.length > 0 && journeys.pay.length > 0);
  assert.equal(wrong, []);
});

test('the direct annual computation reproduces every published annual journey', () => {
  for (const journey of journeys.annual) {
    assert.equal(
      setup.directAnnual.compute({ taxableIncome: money(journey.taxableIncomeCents) }),
      { incomeTax: journey.incomeTax, lowIncomeTaxOffset: journey.lito, medicareLevy: journey.medicare, rawLiability: journey.rawLiability, liability: journey.liability },
      journey.name,
    );
  }
});

test('the direct computation and the engine agree on the bench inputs, which cover every period, scale, row and zone', () => {
  assert.equal(disagreements(setup, 200), []);
  assert.equal(coverage(setup).missing, []);
});

test('the bench inputs are the same on every run', () => {
  const again = benchSetup(takeHome, annual, 512);
  assert.equal(again.payInputs, setup.payInputs);
  assert.equal(again.annualInputs, setup.annualInputs);
});

test('every bench loop runs a few hundred iterations over varied inputs', () => {
  const loops = scenarios(setup);
  assert.ok(loops.some((loop) => loop.id === 'take-home.report') && loops.some((loop) => loop.id === 'annual.direct'));
  for (const loop of loops) {
    const total = runTimes(loop.run, 300);
    assert.ok(Number.isFinite(total) && total > 0, loop.id);
  }
  // The same inputs through the engine and the direct loop give the same sum of net pay.
  const byId = new Map(loops.map((loop) => [loop.id, loop]));
  assert.is(runTimes(byId.get('take-home.facts')!.run, 300), runTimes(byId.get('take-home.direct')!.run, 300));
  assert.is(runTimes(byId.get('annual.facts')!.run, 300), runTimes(byId.get('annual.direct')!.run, 300));
});

test('the timing helpers count iterations and take medians', () => {
  const result = measureFor(() => 1, 5, 16);
  assert.ok(result.iterations >= 16 && result.iterations % 16 === 0 && result.opsPerSec > 0);
  assert.is(median([3, 1, 2]), 2);
  assert.is(median([4, 1, 3, 2]), 2.5);
});

test('the pay-run comparison sends the same calculations both ways and reads the server CPU of each', async () => {
  const { catalog } = loadShipped();
  const pay = catalog.plans.filter((plan) => plan.context.taxYear === takeHome.context.taxYear && plan.def.factsSchemaName === takeHome.def.factsSchemaName);
  const work = mixedPayRunWork(pay, annual, 30);
  assert.ok(new Set(work.map((item) => item.calculatorId)).size >= 3);
  // In this process, so the CPU read is the test's own as well, and /proc counts in ticks of 10 ms:
  // only that both halves ran and were read is checked.
  const server = await startTestServer({ config: { apiExtensions: new Set(['pay-runs']) } });
  try {
    const result = await payRunCpu({ port: Number(new URL(server.url).port), pid: process.pid, work, rounds: 1 });
    assert.is(result.items, 30);
    assert.ok(result.singlesCpuMs >= 0 && result.payRunCpuMs >= 0, JSON.stringify(result));
  } finally {
    await server.close();
  }
});

test.run();
