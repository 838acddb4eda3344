import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator } from '../../engine/index.ts';
import { EDITION_SPANS, payrollCases, payrollFacts, payrollLabel, type PayrollCase } from '../helpers/payroll-conformance.ts';
import { shippedPacks } from '../helpers/packs.ts';

// Every published payroll case through the engine alone, and again on the first and last day each
// edition applies: the edition is chosen by the day the payment is made (EDITION_SPANS), so a case
// published for one day of an edition's span has the same amount on every other day of it. Expected
// figures come only from the sample data.

const CALCULATOR = 'au.payroll.withholding';
const { catalog } = shippedPacks();

/** What the engine withholds for a case: the scale and the amount, or why it could not. */
function run(item: PayrollCase): { scale?: unknown; withheld?: unknown; netPay?: unknown; failure?: string } {
  const plan = catalog.onDate(CALCULATOR, 'AU', item.paymentDate);
  if (!plan) return { failure: `no plan for ${item.paymentDate}` };
  const outcome = runCalculator(plan, payrollFacts(item));
  if (!outcome.ok) return { failure: JSON.stringify(outcome).slice(0, 300) };
  const report = JSON.parse(outcome.json.toString());
  return { scale: report.scale, withheld: report.withheld?.cents, netPay: report.netPay?.cents };
}

function mismatches(cases: (PayrollCase & { file: string })[]): string[] {
  const wrong: string[] = [];
  for (const item of cases) {
    const got = run(item);
    const label = payrollLabel(item);
    if (got.failure) wrong.push(`${label}: ${got.failure}`);
    else if (got.scale !== item.scale || got.withheld !== item.withheldCents || got.netPay !== item.grossCents - item.withheldCents) {
      wrong.push(`${label}: scale ${String(got.scale)} withheld ${String(got.withheld)} net ${String(got.netPay)}, published scale ${item.scale} withheld ${item.withheldCents}`);
    }
  }
  return wrong;
}

test('every payroll conformance file has the span of days its edition applies', () => {
  assert.equal([...new Set(payrollCases().map((item) => item.file))].sort(), Object.keys(EDITION_SPANS).sort());
  for (const item of payrollCases()) assert.ok(EDITION_SPANS[item.file]!.first <= item.paymentDate && item.paymentDate <= EDITION_SPANS[item.file]!.last, payrollLabel(item));
});

test('the engine reproduces every published case, scale and amount, to the cent', () => {
  assert.equal(mismatches(payrollCases()), []);
});

test("the engine reproduces every published case on the first and the last day of its edition's span", () => {
  const cases = payrollCases();
  for (const edge of ['first', 'last'] as const) assert.equal(mismatches(cases.map((item) => ({ ...item, paymentDate: EDITION_SPANS[item.file]![edge] }))), [], edge);
});

test('the study-loan amounts change with the payment date on 24 September 2025: a case whose two editions differ is answered by each on its side of the day', () => {
  const july = payrollCases().filter((item) => item.file === 'nat3539-2025-07.json');
  const september = payrollCases().filter((item) => item.file === 'nat3539-2025-09.json');
  const key = (item: PayrollCase) => JSON.stringify({ ...payrollFacts(item), paymentDate: undefined });
  const septemberByKey = new Map(september.map((item) => [key(item), item]));
  const changed = july.filter((item) => septemberByKey.has(key(item)) && septemberByKey.get(key(item))!.withheldCents !== item.withheldCents);
  assert.ok(changed.length > 100, `${changed.length} published cases differ between the two editions`);
  // The day before the change, July's amount; on the day, September's.
  assert.equal(mismatches(changed.map((item) => ({ ...item, paymentDate: '2025-09-23' }))), []);
  assert.equal(mismatches(changed.map((item) => ({ ...septemberByKey.get(key(item))!, file: 'nat3539-2025-09.json', paymentDate: '2025-09-24' }))), []);
});

test('the comparison can fail: a published case moved to another edition is noticed', () => {
  const before = payrollCases().find((item) => item.file === 'nat3539-2024-07.json' && item.grossCents > 200_000 && item.studyLoan)!;
  assert.equal(mismatches([before]), []);
  assert.is(mismatches([{ ...before, paymentDate: '2026-07-15' }]).length, 1);
});

test.run();
