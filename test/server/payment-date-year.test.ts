import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { residentPayrollFacts } from '../helpers/payroll-conformance.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';

// A calculator that chooses its values by a date fact takes its tax year from that date when the
// request names none. Expected amounts are the tax office's sample data: weekly $1,282.00, scale 2,
// with a study loan, withholds $260.00 under NAT 3539 July 2025 (paid 2025-07-15) and $234.00 under
// NAT 3539 September 2025 (paid 2025-09-30); without a study loan it withholds $234.00 under NAT 1004
// July 2024 (paid 2024-10-15) and $229.00 under NAT 1004 July 2026 (paid 2026-10-15).
const facts = residentPayrollFacts;

let everything: TestServer;
let plain: TestServer;
test.before(async () => {
  const served = servedPacks({ taxYears: 'all', calculators: 'all' });
  everything = await startTestServer({ deps: { catalog: served.catalog, defaultTaxYear: served.defaultTaxYear } });
  plain = await startTestServer();
});
test.after(async () => {
  await everything.close();
  await plain.close();
});

const post = async (server: TestServer, body: unknown) => {
  const response = await calculate(server.url, 'au.payroll.withholding', body);
  return { status: response.status, body: (await response.json()) as any };
};

test('with no tax year named, the payment date chooses the year and the edition', async () => {
  for (const [day, cents, studyLoan, year, withheld] of [
    ['2025-07-15', 128200, true, '2025-26', 26000],
    ['2025-09-30', 128200, true, '2025-26', 23400],
    ['2024-10-15', 128200, false, '2024-25', 23400],
    ['2026-10-15', 128200, false, '2026-27', 22900],
  ] as const) {
    const { status, body } = await post(everything, { facts: facts(day, cents, studyLoan) });
    assert.is(status, 200, day);
    assert.is(body.calculator.context.taxYear, year, day);
    assert.is(body.report.withheld.cents, withheld, day);
    assert.is(body.report.rulePackVersion.startsWith('rules-au-payroll/'), true);
  }
});

test('a tax year named that agrees with the payment date is used; one that contradicts it is a 400 naming the fact', async () => {
  assert.is((await post(everything, { facts: facts('2025-09-30', 128200, true), taxYear: '2025-26' })).body.report.withheld.cents, 23400);
  const { status, body } = await post(everything, { facts: facts('2025-09-30', 128200, true), taxYear: '2026-27' });
  assert.is(status, 400);
  assert.is(body.error._tag, 'CalculatorInputDecodeError');
  assert.equal(body.error.issues.map((issue: { path: string[] }) => issue.path), [['facts', 'paymentDate']]);
  assert.not.ok(JSON.stringify(body).includes('2025-09-30'), 'the date sent is not echoed');
});

test('a payment date in no served year is a 400 UnsupportedCalculatorContextError, echoing nothing of it', async () => {
  for (const day of ['2023-06-30', '2027-07-01']) {
    const { status, body } = await post(everything, { facts: facts(day, 100000, false) });
    assert.is(status, 400, day);
    assert.is(body.error._tag, 'UnsupportedCalculatorContextError', day);
    assert.equal(body.error.context, {}, day);
    assert.match(body.error.message, /facts\.paymentDate/);
    assert.not.ok(JSON.stringify(body).includes(day), day);
  }
});

test('an impossible date is a 400 decode error naming paymentDate, never its value', async () => {
  const { status, body } = await post(everything, { facts: facts('2025-02-30', 100000, false) });
  assert.is(status, 400);
  assert.is(body.error._tag, 'CalculatorInputDecodeError');
  assert.equal(body.error.issues.map((issue: { path: string[] }) => issue.path), [['facts', 'paymentDate']]);
  assert.not.ok(JSON.stringify(body).includes('2025-02-30'));
});

test('plain npm start does not serve the calculator', async () => {
  const { status, body } = await post(plain, { facts: facts('2025-09-30', 128200, true) });
  assert.is(status, 400);
  assert.is(body.error._tag, 'UnsupportedCalculatorError');
  const catalog = (await (await fetch(`${plain.url}/api/v1/calculators`)).json()) as { calculators: { calculatorId: string }[] };
  assert.equal([...new Set(catalog.calculators.map((entry) => entry.calculatorId))].sort(), ['au.income-tax.annual', 'au.pay.take-home', 'au.pay.withholdings']);
});

test.run();
