import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCatalog, loadPacks, runCalculator, runExamples } from '../../engine/index.ts';
import { PROJECT_ROOT, SHIPPED_PACKS, money, nextYearFixture, payFacts, shippedPacks } from '../helpers/packs.ts';

// "A new tax year is a YAML-only change": the pack under test/fixtures/packs/next-year is the shipped
// rules-au-pay/1.0.0 with only pack.yaml (a pretend far-future tax year, so that it never meets a real
// pack), the two coefficient tables, sources.yaml and the examples edited. Its coefficients are MADE UP.
// The tests read its year and version from the fixture; no engine or server code knows about it.

const fixture = nextYearFixture();
const shipped = shippedPacks().loaded;
const loaded = loadPacks([SHIPPED_PACKS, fixture.root], { displayRoot: PROJECT_ROOT });
const catalog = createCatalog(loaded.packs.flatMap((report) => report.plans));
const shippedPayYears = shipped.packs.filter((report) => report.pack.id === 'rules-au-pay').map((report) => report.pack.taxYear.id);

type Report = Record<string, any>;
function takeHome(taxYear: string, facts: unknown): Report {
  const plan = catalog.find('au.pay.take-home', { jurisdiction: 'AU', taxYear });
  assert.ok(plan, `no take-home calculator for ${taxYear}`);
  const outcome = runCalculator(plan!, facts);
  if (!outcome.ok) throw new Error(`calculation failed: ${JSON.stringify(outcome)}`);
  return JSON.parse(outcome.json.toString()) as Report;
}

test('the next-year pack loads cleanly alongside the shipped packs', () => {
  assert.equal(loaded.diagnostics, []);
  const name = (report: { pack: { id: string; version: string; taxYear: { id: string } } }) => `${report.pack.id}/${report.pack.version} ${report.pack.taxYear.id}`;
  assert.equal(loaded.packs.map(name).sort(), [...shipped.packs.map(name), `${fixture.rulePackVersion} ${fixture.taxYear.id}`].sort());
  assert.not.ok(shippedPayYears.includes(fixture.taxYear.id), 'the pretend year is one no shipped pack serves');
  assert.equal(catalog.withId('au.pay.take-home').map((plan) => plan.context.taxYear).sort(), [...shippedPayYears, fixture.taxYear.id].sort());
});

test('next-year take-home pay comes from the made-up coefficients, worked by hand', () => {
  // Teacher, $3,462.00 a fortnight, tax-free threshold claimed (scale 2):
  //   weekly equivalent = 346200 / 2 = 173100 cents; whole dollars plus 99 cents: x = 1731.99
  //   made-up scale 2 row "below 2650": a = 0.3000, b = 168.5000
  //   y = 0.30 × 1731.99 − 168.50 = 519.597 − 168.50 = 351.097 → nearest dollar: $351 a week
  //   fortnightly withholding = 2 × $351 = $702.00 → 70200 cents
  //   take-home = 346200 − 70200 = 276000 cents
  const report = takeHome(fixture.taxYear.id, payFacts(346200, 'fortnightly', true));
  assert.is(report.rulePackVersion, fixture.rulePackVersion);
  assert.equal(report.withholdingsTotal, money(70200));
  assert.equal(report.netPay, money(276000));
});

test('next-year scale 1, monthly pay, worked by hand', () => {
  // Mine worker, $9,500.00 a month, tax-free threshold not claimed (scale 1):
  //   weekly equivalent = 950000 × 3 / 13 = 219230.77 cents; whole dollars plus 99 cents: x = 2192.99
  //   made-up scale 1 row "below 2300": a = 0.3000, b = 59.5000
  //   y = 0.30 × 2192.99 − 59.50 = 657.897 − 59.50 = 598.397 → nearest dollar: $598 a week
  //   monthly withholding = 598 × 13 / 3 = 2591.33 → nearest dollar: $2,591.00 → 259100 cents
  //   take-home = 950000 − 259100 = 690900 cents
  const report = takeHome(fixture.taxYear.id, payFacts(950000, 'monthly', false));
  assert.equal(report.withholdingsTotal, money(259100));
  assert.equal(report.netPay, money(690900));
});

test('2025-26 still gives the published figures', () => {
  // The same teacher under the published 2025-26 scale 2 (row below 2596: a 0.3200, b 176.5769):
  // 0.32 × 1731.99 − 176.5769 = 377.6599 → $378 a week → $756.00 a fortnight, as the tax office publishes.
  const report = takeHome('2025-26', payFacts(346200, 'fortnightly', true));
  assert.is(report.rulePackVersion, 'rules-au-pay/1.0.0');
  assert.equal(report.withholdingsTotal, money(75600));
  assert.equal(report.netPay, money(270600));
});

test("the next-year pack's own worked examples pass", () => {
  const report = loaded.packs.find((candidate) => candidate.pack.dir === fixture.dir)!;
  const failed = runExamples(report.pack.examples, report.plans).filter((result) => !result.passed);
  assert.equal(failed, []);
});

test('changing one parameter value, and nothing else, changes the figure', () => {
  // A copy of the shipped pay pack with one coefficient edited: scale 2, row "below 2596", a 0.3200 → 0.3300.
  const root = mkdtempSync(join(tmpdir(), 'next-year-'));
  try {
    const dir = join(root, 'rules-au-pay', '1.0.0');
    cpSync(join(SHIPPED_PACKS, 'rules-au-pay', '1.0.0'), dir, { recursive: true });
    const file = join(dir, 'parameters', 'withholding-scale-2.yaml');
    const row = '{ below: 2596, a: "0.3200", b: "176.5769" }';
    const text = readFileSync(file, 'utf8');
    assert.is(text.split(row).length, 2, 'the row to edit is in the shipped pack exactly once');
    writeFileSync(file, text.replace(row, '{ below: 2596, a: "0.3300", b: "176.5769" }'));

    const changed = loadPacks([root], { displayRoot: root });
    assert.equal(changed.diagnostics, []);
    const plan = createCatalog(changed.packs[0]!.plans).find('au.pay.take-home')!;
    // Nurse, $1,654.00 a week, scale 2: x = 1654.99; published 0.32 × 1654.99 − 176.5769 = 353.0199 → $353.
    // Edited: 0.33 × 1654.99 − 176.5769 = 546.1467 − 176.5769 = 369.5698 → $370 → 37000 cents.
    const outcome = runCalculator(plan, payFacts(165400, 'weekly', true));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    const report = JSON.parse(outcome.json.toString()) as Report;
    assert.equal(report.withholdingsTotal, money(37000));
    assert.equal(report.netPay, money(165400 - 37000));
    assert.equal(takeHome('2025-26', payFacts(165400, 'weekly', true)).withholdingsTotal, money(35300));

    // The pack's worked example still expects the published $353, so the change cannot go unnoticed.
    const nurse = runExamples(changed.packs[0]!.pack.examples, changed.packs[0]!.plans).find((result) => result.example.name === 'nurse')!;
    assert.is(nurse.passed, false);
    assert.equal(nurse.mismatches.find((mismatch) => mismatch.factId === 'paygWithholding'), { factId: 'paygWithholding', expected: 35300, actual: 37000 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
