import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator, runExamples, type CalculatorPlan } from '../../engine/index.ts';
import { CONFORMANCE_YEARS, journeysOf, samplesOf } from '../helpers/conformance.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// Every tax year that has published cases, copied from the shared conformance set, is checked
// against them; expected figures come only from there. test/fixtures/conformance/years.json says
// which files belong to which year. The years and calculators come from the shipped packs: a case
// is checked wherever a pack serves its calculator for its year, and skipped (with the reason)
// where none does, so a year served by only some families passes. A year without published cases
// rests on its packs' own worked examples, each citing its source. A new year's packs need no edit here.

const index = CONFORMANCE_YEARS;
const { catalog, loaded } = shippedPacks();
const servedYears = [...new Set(loaded.packs.map((report) => report.pack.taxYear.id))].sort();
const serves = (calculatorId: string, year: string) => catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year }) !== undefined;

type Report = Record<string, any>;
function report(outcome: ReturnType<typeof runCalculator>): Report {
  if (!outcome.ok) throw new Error(`calculation failed: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json.toString()) as Report;
}

test('the shipped packs load without diagnostics', () => {
  assert.equal(loaded.diagnostics, []);
});

test('every year with published cases is served by the shipped packs', () => {
  assert.equal(Object.keys(index).filter((year) => !servedYears.includes(year)), []);
});

// A year without published cases: each calculator served for it has worked examples, and they pass.
for (const year of servedYears.filter((candidate) => !(candidate in index))) {
  test(`${year} (no published cases): every calculator served has worked examples, and they pass`, () => {
    const reports = loaded.packs.filter((report) => report.pack.taxYear.id === year);
    const unexamined = reports.flatMap((report) => report.pack.calculators.filter((calculator) => !report.pack.examples.some((example) => example.calculator === calculator.id)).map((calculator) => calculator.id));
    assert.equal(unexamined, [], 'calculators without a worked example');
    const failed = reports.flatMap((report) => runExamples(report.pack.examples, report.plans).filter((result) => !result.passed).map((result) => result.example.name));
    assert.equal(failed, []);
  });
}

/** Registers a test, or skips it with the reason when no shipped pack serves its calculator for the year. */
function testServed(name: string, year: string, calculatorIds: string[], body: () => void): void {
  const missing = calculatorIds.filter((calculatorId) => !serves(calculatorId, year));
  if (missing.length === 0) test(name, body);
  else test.skip(`${name} (skipped: no shipped pack serves ${missing.join(', ')} for ${year})`, body);
}

for (const [year, files] of Object.entries(index)) {
  const samples = samplesOf(year);
  const journeys = journeysOf(year);
  const plan = (calculatorId: string): CalculatorPlan => {
    const found = catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year });
    if (!found) throw new Error(`no ${calculatorId} for AU ${year}`);
    return found;
  };
  /** The rulePackVersion a report of this year must carry: the one pack that defines the calculator for the year. */
  const versionOf = (calculatorId: string) => {
    const packs = loaded.packs.filter((candidate) => candidate.pack.taxYear.id === year && candidate.pack.calculators.some((calculator) => calculator.id === calculatorId));
    assert.is(packs.length, 1, `one pack defines ${calculatorId} for ${year}`);
    return `${packs[0]!.pack.id}/${packs[0]!.pack.version}`;
  };

  test(`${year}: the journeys file is for this year`, () => {
    if (journeys.taxYear !== undefined) assert.is(journeys.taxYear, year);
    assert.ok(journeys.pay.length > 0 && journeys.annual.length > 0);
  });

  testServed(`${year}: every published withholding sample (${samples.length}) is reproduced to the cent by both pay calculators`, year, ['au.pay.take-home', 'au.pay.withholdings'], () => {
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
    testServed(`${year} pay journey: ${journey.name}`, year, ['au.pay.take-home', 'au.pay.withholdings'], () => {
      const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
      const home = report(runCalculator(plan('au.pay.take-home'), facts));
      assert.is(home._tag, 'TakeHomePayReport');
      assert.is(home.rulePackVersion, versionOf('au.pay.take-home'));
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
    testServed(`${year} annual journey: ${journey.name}`, year, ['au.income-tax.annual'], () => {
      const result = report(runCalculator(plan('au.income-tax.annual'), { taxableIncome: money(journey.taxableIncomeCents) }));
      assert.is(result._tag, 'AnnualTaxReport');
      assert.is(result.rulePackVersion, versionOf('au.income-tax.annual'));
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
      if (serves('au.pay.withholdings', year)) sampleKeys.push(key('au.pay.withholdings', facts));
    }
    for (const journey of journeys.pay) {
      const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
      expected.set(key('au.pay.take-home', facts), { paygWithholding: journey.withheldCents, withholdingsTotal: journey.withheldCents, netPay: journey.netCents });
      if (serves('au.pay.take-home', year)) journeyKeys.push(key('au.pay.take-home', facts));
    }
    for (const journey of journeys.annual) {
      const facts = { taxableIncome: money(journey.taxableIncomeCents) };
      const figures = { incomeTax: journey.incomeTax, lowIncomeTaxOffset: journey.lito, medicareLevy: journey.medicare, rawLiability: journey.rawLiability, liability: journey.liability };
      expected.set(key('au.income-tax.annual', facts), figures);
      if (serves('au.income-tax.annual', year)) journeyKeys.push(key('au.income-tax.annual', facts));
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
