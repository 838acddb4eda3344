import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONFORMANCE_YEARS, journeysOf, samplesOf } from '../helpers/conformance.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';

// What TAX_YEARS=all promises over HTTP: every year a shipped pack is for is served, and every
// published case of each year that has them is answered to the cent through the calculate route
// with the year's taxYear (where a pack serves the case's calculator for that year); the default
// year's cases, asked without a taxYear, are answered exactly as plain `npm start` answers them.
// Expected figures come only from the conformance files (copies of the shared set, indexed by
// years.json). The years come from the packs, so a new year's packs need no edit here.

/** One calculate request and what its answer must hold, each figure named for the failure message. */
interface Case {
  label: string;
  calculatorId: string;
  body: { facts: unknown; taxYear?: string };
  expect: Record<string, number>;
}

const index = CONFORMANCE_YEARS;
const everyYear = servedPacks({ taxYears: 'all' });
const plain = servedPacks();

/** Every published case of a year whose calculator is served for it, as requests naming that year (or none, for the default year). */
function casesOf(year: string, taxYear: string | undefined): Case[] {
  return publishedCasesOf(year, taxYear).filter((item) => everyYear.catalog.find(item.calculatorId, { jurisdiction: 'AU', taxYear: year }));
}

/** Every published case of a year. */
function publishedCasesOf(year: string, taxYear: string | undefined): Case[] {
  const samples = samplesOf(year);
  const journeys = journeysOf(year);
  const body = (facts: unknown) => (taxYear === undefined ? { facts } : { facts, taxYear });
  const cases: Case[] = [];
  for (const sample of samples) {
    const facts = payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed);
    const label = `${year} sample ${sample.period} ${sample.grossCents} ${sample.taxFreeThresholdClaimed ? 'scale 2' : 'scale 1'}`;
    cases.push({ label, calculatorId: 'au.pay.take-home', body: body(facts), expect: { 'report.withholdingsTotal': sample.withheldCents, 'report.netPay': sample.grossCents - sample.withheldCents } });
    cases.push({ label, calculatorId: 'au.pay.withholdings', body: body(facts), expect: { 'report.total': sample.withheldCents } });
  }
  for (const journey of journeys.pay) {
    const facts = payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed);
    const label = `${year} pay journey ${journey.name}`;
    const withheld = { 'report.withholdingsTotal': journey.withheldCents, 'report.netPay': journey.netCents, 'report.grossPay': journey.grossCents };
    cases.push({ label, calculatorId: 'au.pay.take-home', body: body(facts), expect: withheld });
    cases.push({ label, calculatorId: 'au.pay.withholdings', body: body(facts), expect: { 'report.total': journey.withheldCents } });
  }
  for (const journey of journeys.annual) {
    const expect = {
      'report.taxableIncome': journey.taxableIncomeCents,
      'component income-tax': journey.incomeTax,
      'component low-income-tax-offset': journey.lito,
      'component medicare-levy': journey.medicare,
      'report.rawLiability': journey.rawLiability,
      'report.liability': journey.liability,
    };
    cases.push({ label: `${year} annual journey ${journey.name}`, calculatorId: 'au.income-tax.annual', body: body({ taxableIncome: money(journey.taxableIncomeCents) }), expect });
  }
  return cases;
}

/** The cents a case names, read from an answer: a report field or a ledger component by id. */
function centsAt(answer: any, figure: string): unknown {
  if (figure.startsWith('component ')) {
    const id = figure.slice('component '.length);
    return answer.report.ledger?.components?.find((component: any) => component.id === id)?.amount?.cents;
  }
  const field = answer.report[figure.slice('report.'.length)];
  return field?._tag === 'Money' ? field.cents : undefined;
}

interface Answer {
  status: number;
  text: string;
}

/** Sends every case, a few at a time (no more than the service has calculation places). */
async function send(server: TestServer, cases: Case[], places: number): Promise<Answer[]> {
  const answers: Answer[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const at = next++;
      const response = await calculate(server.url, cases[at]!.calculatorId, cases[at]!.body);
      answers[at] = { status: response.status, text: await response.text() };
    }
  };
  await Promise.all(Array.from({ length: places }, worker));
  return answers;
}

/** Every way an answer differs from its case, so that one run names every wrong figure. */
function mismatches(cases: Case[], answers: Answer[], year: string | undefined, rulePackVersionOf: (calculatorId: string) => string): string[] {
  const wrong: string[] = [];
  cases.forEach((item, at) => {
    const { status, text } = answers[at]!;
    if (status !== 200) return wrong.push(`${item.label} ${item.calculatorId}: status ${status} ${text.slice(0, 200)}`);
    const answer = JSON.parse(text);
    if (year !== undefined && answer.calculator?.context?.taxYear !== year) wrong.push(`${item.label} ${item.calculatorId}: answered for ${answer.calculator?.context?.taxYear}`);
    // The withholdings ledger's shape carries no rulePackVersion; the other reports must name the year's pack.
    if ('rulePackVersion' in answer.report || answer.report._tag !== 'PayWithholdingsLedger') {
      if (answer.report.rulePackVersion !== rulePackVersionOf(item.calculatorId)) wrong.push(`${item.label} ${item.calculatorId}: rulePackVersion ${answer.report.rulePackVersion}`);
    }
    for (const [figure, cents] of Object.entries(item.expect)) {
      const got = centsAt(answer, figure);
      if (got !== cents) wrong.push(`${item.label} ${item.calculatorId}: ${figure} ${String(got)}, published ${cents}`);
    }
  });
  return wrong;
}

const places = 8;
let all: TestServer;
let contract: TestServer;
test.before(async () => {
  const config = { calcConcurrency: places };
  all = await startTestServer({ config, deps: { catalog: everyYear.catalog, defaultTaxYear: everyYear.defaultTaxYear } });
  contract = await startTestServer({ config });
});
test.after(async () => {
  await all.close();
  await contract.close();
});

test('TAX_YEARS=all serves every year a shipped pack is for, among them every year the conformance files cover', () => {
  const served = [...new Set(everyYear.catalog.plans.map((plan) => plan.context.taxYear))].sort();
  const shipped = [...new Set(shippedPacks().loaded.packs.map((report) => report.pack.taxYear.id))].sort();
  assert.equal(served, shipped);
  assert.equal(Object.keys(index).filter((year) => !served.includes(year)), []);
  assert.ok(served.includes(everyYear.defaultTaxYear!), 'the default year is served');
});

for (const year of Object.keys(index)) {
  const unserved = [...new Set(publishedCasesOf(year, year).map((item) => item.calculatorId))].filter((calculatorId) => !everyYear.catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year }));
  if (unserved.length > 0) test.skip(`${year}: the published cases of ${unserved.join(', ')} (skipped: no shipped pack serves them for ${year})`);
  test(`${year}: every published sample and journey, asked for with taxYear ${year}, is answered to the cent`, async () => {
    const cases = casesOf(year, year);
    assert.ok(cases.length > 0, `a shipped pack serves some calculator of the ${year} cases`);
    const rulePackVersionOf = (calculatorId: string) => everyYear.catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year })!.rulePackVersion;
    assert.equal(mismatches(cases, await send(all, cases, places), year, rulePackVersionOf), []);
  });
}

test('without a taxYear, the default year is answered to the cent and byte for byte as plain npm start answers it', async () => {
  const year = everyYear.defaultTaxYear!;
  assert.is(plain.defaultTaxYear, year, 'plain npm start and TAX_YEARS=all share the default year');
  const cases = casesOf(year, undefined);
  const rulePackVersionOf = (calculatorId: string) => plain.catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year })!.rulePackVersion;
  const fromAll = await send(all, cases, places);
  assert.equal(mismatches(cases, fromAll, year, rulePackVersionOf), []);
  const fromContract = await send(contract, cases, places);
  const differing = cases.filter((_, at) => fromAll[at]!.text !== fromContract[at]!.text).map((item) => `${item.label} ${item.calculatorId}`);
  assert.equal(differing, []);
});

test('the comparison can fail: a wrong published figure or another year is noticed', async () => {
  const [year] = Object.entries(index).find(([candidate]) => candidate !== everyYear.defaultTaxYear)!;
  const [first] = casesOf(year, year);
  const rulePackVersionOf = (calculatorId: string) => everyYear.catalog.find(calculatorId, { jurisdiction: 'AU', taxYear: year })!.rulePackVersion;
  const [answer] = await send(all, [first!], 1);
  assert.equal(mismatches([first!], [answer!], year, rulePackVersionOf), []);
  const figure = Object.keys(first!.expect)[0]!;
  const offByOne = { ...first!, expect: { [figure]: first!.expect[figure]! + 1 } };
  assert.is(mismatches([offByOne], [answer!], year, rulePackVersionOf).length, 1);
  assert.is(mismatches([first!], [answer!], everyYear.defaultTaxYear, rulePackVersionOf).length, 1);
});

test.run();
