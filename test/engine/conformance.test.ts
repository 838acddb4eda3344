import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import { CONFORMANCE_YEARS, journeysOf, samplesOf } from '../helpers/conformance.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// Every tax year the shipped packs serve is checked against its own published cases, copied from the
// shared conformance set; expected figures come only from there. test/fixtures/conformance/years.json
// says which files belong to which year, so a new year's packs need its files and an entry there,
// and no edit here.

const index = CONFORMANCE_YEARS;
const { catalog, loaded } = shippedPacks();
const servedYears = [...new Set(loaded.packs.map((report) => report.pack.taxYear.id))].sort();

type Report = Record<string, any>;
function report(outcome: ReturnType<typeof runCalculator>): Report {
  if (!outcome.ok) throw new Error(`calculation failed: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json.toString()) as Report;
}

test('the shipped packs load without diagnostics', () => {
  assert.equal(loaded.diagnostics, []);
});

test('every year the shipped packs serve has its conformance files, and every indexed year is served', () => {
  assert.equal(Object.keys(index).sort(), servedYears);
});

for (const [year, files] of Object.entries(index)) {
  const samples = samplesOf(year);
  const journeys = journeysOf(year);
  const plan = (calculatorId: string): CalculatorPlan => {
    const found = catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year });
    if (!found) throw new Error(`no ${calculatorId} for AU ${year}`);
    return found;
  };
  /** The rulePackVersion a report of this year must carry: the one pack of the family serving the year. */
  const versionOf = (packId: string) => {
    const packs = loaded.packs.filter((candidate) => candidate.pack.id === packId && candidate.pack.taxYear.id === year);
    assert.is(packs.length, 1, `one ${packId} pack for ${year}`);
    return `${packId}/${packs[0]!.pack.version}`;
  };

  test(`${year}: the journeys file is for this year`, () => {
    if (journeys.taxYear !== undefined) assert.is(journeys.taxYear, year);
    assert.ok(journeys.pay.length > 0 && journeys.annual.length > 0);
  });

  test(`${year}: every published withholding sample (${samples.length}) is reproduced to the cent by both pay calculators`, () => {
    const takeHome = plan('au.pay.take-home');
    const withholdings = plan('au.pay.withholdings');
    const wrong: string[] = [];
    for (const sample of samples) {
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
    test(`${year} pay journey: ${journey.name}`, () => {
      const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
      const home = report(runCalculator(plan('au.pay.take-home'), facts));
      assert.is(home._tag, 'TakeHomePayReport');
      assert.is(home.rulePackVersion, versionOf('rules-au-pay'));
      assert.equal(home.grossPay, money(journey.grossCents));
      assert.equal(home.taxablePay, money(journey.grossCents));
      assert.equal(home.withholdingsTotal, money(journey.withheldCents));
      assert.equal(home.netPay, money(journey.netCents));
      assert.is(home.period, journey.period);
      assert.equal(home.withholdings.total, money(journey.withheldCents));
      assert.equal(home.withholdings.components[0].amount, money(journey.withheldCents));
      const ledger = report(runCalculator(plan('au.pay.withholdings'), facts));
      assert.is(ledger._tag, 'PayWithholdingsLedger');
      assert.equal(ledger.total, money(journey.withheldCents));
    });
  }

  for (const journey of journeys.annual) {
    test(`${year} annual journey: ${journey.name}`, () => {
      const result = report(runCalculator(plan('au.income-tax.annual'), { taxableIncome: money(journey.taxableIncomeCents) }));
      assert.is(result._tag, 'AnnualTaxReport');
      assert.is(result.rulePackVersion, versionOf('rules-au-income-tax'));
      assert.equal(result.taxableIncome, money(journey.taxableIncomeCents));
      const amounts = Object.fromEntries(result.ledger.components.map((component: Report) => [component.id, component.amount.cents]));
      assert.equal(Object.values(amounts), [journey.incomeTax, journey.lito, journey.medicare]);
      assert.equal(result.rawLiability, money(journey.rawLiability));
      assert.equal(result.ledger.rawLiability, money(journey.rawLiability));
      assert.equal(result.liability, money(journey.liability));
    });
  }

  test(`${year}: the packs' own worked examples agree with the published cases, and include every journey${files.everySampleIsAnExample ? ' and every sample' : ''}`, () => {
    const examples = loaded.packs.filter((candidate) => candidate.pack.taxYear.id === year).flatMap((candidate) => candidate.pack.examples);
    const key = (calculator: string, facts: unknown) => `${calculator} ${JSON.stringify(facts)}`;
    const expected = new Map<string, Record<string, number>>();
    const journeyKeys: string[] = [];
    const sampleKeys: string[] = [];
    for (const sample of samples) {
      const facts = payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed);
      const withheld = { paygWithholding: sample.withheldCents, withholdingsTotal: sample.withheldCents };
      expected.set(key('au.pay.withholdings', facts), withheld);
      expected.set(key('au.pay.take-home', facts), { ...withheld, netPay: sample.grossCents - sample.withheldCents });
      sampleKeys.push(key('au.pay.withholdings', facts));
    }
    for (const journey of journeys.pay) {
      const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
      expected.set(key('au.pay.take-home', facts), { paygWithholding: journey.withheldCents, withholdingsTotal: journey.withheldCents, netPay: journey.netCents });
      journeyKeys.push(key('au.pay.take-home', facts));
    }
    for (const journey of journeys.annual) {
      const facts = { taxableIncome: money(journey.taxableIncomeCents) };
      const figures = { incomeTax: journey.incomeTax, lowIncomeTaxOffset: journey.lito, medicareLevy: journey.medicare, rawLiability: journey.rawLiability, liability: journey.liability };
      expected.set(key('au.income-tax.annual', facts), figures);
      journeyKeys.push(key('au.income-tax.annual', facts));
    }
    const written = new Set<string>();
    const contradictions: string[] = [];
    for (const example of examples) {
      const exampleKey = key(example.calculator, example.facts);
      written.add(exampleKey);
      const published = expected.get(exampleKey);
      if (!published) continue;
      for (const [factId, value] of Object.entries(example.expect)) {
        if (factId in published && published[factId] !== value) contradictions.push(`${example.name}: ${factId} ${String(value)}, published ${published[factId]}`);
      }
    }
    assert.equal(contradictions, []);
    assert.equal(journeyKeys.filter((journeyKey) => !written.has(journeyKey)), [], 'journeys without a worked example');
    if (files.everySampleIsAnExample) assert.equal(sampleKeys.filter((sampleKey) => !written.has(sampleKey)), [], 'samples without a worked example');
  });
}

test.run();
