import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator } from '../../engine/index.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// Published cases copied from the shared conformance set; expected figures come only from there.
const samples = JSON.parse(readFileSync(new URL('../fixtures/conformance/withholding-ato-samples.json', import.meta.url), 'utf8')) as {
  cases: { grossCents: number; period: string; taxFreeThresholdClaimed: boolean; withheldCents: number }[];
};
const journeys = JSON.parse(readFileSync(new URL('../fixtures/conformance/journeys.json', import.meta.url), 'utf8')) as {
  pay: { name: string; grossCents: number; period: string; taxFreeThresholdClaimed: boolean; withheldCents: number; netCents: number }[];
  annual: { name: string; taxableIncomeCents: number; incomeTax: number; lito: number; medicare: number; rawLiability: number; liability: number }[];
};

const { catalog, loaded } = shippedPacks();
const takeHome = catalog.find('au.pay.take-home')!;
const withholdings = catalog.find('au.pay.withholdings')!;
const annual = catalog.find('au.income-tax.annual')!;

type Report = Record<string, any>;
function report(outcome: ReturnType<typeof runCalculator>): Report {
  if (!outcome.ok) throw new Error(`calculation failed: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json) as Report;
}

test('the shipped packs load without diagnostics', () => {
  assert.equal(loaded.diagnostics, []);
  assert.ok(takeHome && withholdings && annual);
});

test('the published sample set has 288 cases', () => {
  assert.is(samples.cases.length, 288);
});

test('every tax office withholding sample is reproduced to the cent by both pay calculators', () => {
  const wrong: string[] = [];
  for (const sample of samples.cases) {
    const facts = payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed);
    const home = report(runCalculator(takeHome, facts));
    const ledger = report(runCalculator(withholdings, facts));
    const label = `${sample.period} ${sample.grossCents} scale ${sample.taxFreeThresholdClaimed ? 2 : 1}`;
    if (home.withholdingsTotal.cents !== sample.withheldCents) wrong.push(`${label}: take-home withheld ${home.withholdingsTotal.cents}, expected ${sample.withheldCents}`);
    if (home.netPay.cents !== sample.grossCents - sample.withheldCents) wrong.push(`${label}: net pay ${home.netPay.cents}`);
    if (ledger.total.cents !== sample.withheldCents) wrong.push(`${label}: ledger total ${ledger.total.cents}, expected ${sample.withheldCents}`);
  }
  assert.equal(wrong, []);
});

for (const journey of journeys.pay) {
  test(`pay journey: ${journey.name}`, () => {
    const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
    const home = report(runCalculator(takeHome, facts));
    assert.is(home._tag, 'TakeHomePayReport');
    assert.is(home.rulePackVersion, 'rules-au-pay/1.0.0');
    assert.equal(home.grossPay, money(journey.grossCents));
    assert.equal(home.taxablePay, money(journey.grossCents));
    assert.equal(home.withholdingsTotal, money(journey.withheldCents));
    assert.equal(home.netPay, money(journey.netCents));
    assert.is(home.period, journey.period);
    assert.equal(home.withholdings.total, money(journey.withheldCents));
    assert.equal(home.withholdings.components[0].amount, money(journey.withheldCents));
    const ledger = report(runCalculator(withholdings, facts));
    assert.is(ledger._tag, 'PayWithholdingsLedger');
    assert.equal(ledger.total, money(journey.withheldCents));
  });
}

for (const journey of journeys.annual) {
  test(`annual journey: ${journey.name}`, () => {
    const result = report(runCalculator(annual, { taxableIncome: money(journey.taxableIncomeCents) }));
    assert.is(result._tag, 'AnnualTaxReport');
    assert.is(result.rulePackVersion, 'rules-au-income-tax/1.0.0');
    assert.equal(result.taxableIncome, money(journey.taxableIncomeCents));
    const amounts = Object.fromEntries(result.ledger.components.map((component: Report) => [component.id, component.amount.cents]));
    assert.equal(Object.values(amounts), [journey.incomeTax, journey.lito, journey.medicare]);
    assert.equal(result.rawLiability, money(journey.rawLiability));
    assert.equal(result.ledger.rawLiability, money(journey.rawLiability));
    assert.equal(result.liability, money(journey.liability));
  });
}

test.run();
