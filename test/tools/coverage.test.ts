import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatCoverage } from '../../tools/validate-pack/coverage-report.ts';
import { measureCoverage } from '../../tools/validate-pack/coverage.ts';
import { PROJECT_ROOT, shippedPacks } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// validate-pack --coverage: the shipped packs' text report in-process; spawned, their JSON with
// --require-full, the pay pack alone with --require-full, and a fixture pack made with a gap of every
// kind next to a broken pack.

interface CoverageJson {
  full: boolean;
  packs: {
    id: string;
    version: string;
    measured: boolean;
    full: boolean;
    totals: { rules: { exercised: number; total: number }; rows: { exercised: number; total: number } };
    examples: { total: number; ran: number; couldNotRun: { name: string; error: string }[] };
    rules: { id: string; calculators: string[]; examples: string[] }[];
    tables: { parameter: string; readBy: string[]; periods: { effectivePeriod: { from: string; toExclusive: string | null }; source: string; inEffect: boolean; rows: { row: number; values: Record<string, unknown>; examples: string[] }[] }[] }[];
  }[];
}

const runs = suiteRuns({
  json: () => cli('validate-pack', ['--coverage', '--json', '--require-full']),
  pay: () => cli('validate-pack', ['rulepacks/rules-au-pay/1.0.0', '--coverage', '--require-full']),
  fixture: () => cli('validate-pack', ['test/fixtures/tool-packs/coverage-gaps', 'test/fixtures/packs/cycle', '--coverage', '--json']),
});
test.before(runs.start);

test('shipped packs (in-process): every rule and every row of every bracket table is exercised by the examples', () => {
  const stdout = formatCoverage(shippedPacks().loaded.packs.map(measureCoverage)).replaceAll(PROJECT_ROOT, '');
  assert.ok(stdout.includes('pack rules-au-pay/1.0.0 (rulepacks/rules-au-pay/1.0.0), tax year 2025-26\n  examples: 19 of 19 ran\n  rules: 4/4 exercised'), stdout);
  assert.ok(stdout.includes('  bracket table rows: 16/16 exercised\n    withholding-scale-1, 2024-07-01 to before 2026-07-01 (source nat-1004): 7/7 rows'), stdout);
  assert.match(stdout, /^ {6}row 1 {2}below 150, a 0\.1600, b 0\.1600 +1 example, e\.g\. `NAT 1004 sample, scale 1 row 1 \(x below \$150\), \$116\.00 weekly`$/m);
  assert.match(stdout, /^ {2}full coverage$/m);
  assert.match(stdout, /^ {6}row 4 {2}from 135000, rate 0\.37 +1 example, e\.g\. `resident rates row 4 \(\$135,001 to \$190,000 at 37c\), taxable income \$150,000`$/m);
  assert.not.match(stdout, /NOT EXERCISED/);
  const total = stdout.match(/^FULL: (\d+) packs, rules (\d+)\/(\d+), bracket table rows (\d+)\/(\d+) exercised by the examples$/m);
  assert.ok(total, stdout);
  assert.is(Number(total![1]), shippedPacks().loaded.packs.length);
  assert.ok(total![2] === total![3] && total![4] === total![5], total![0]);
});

test('shipped packs, --json --require-full: every pack is fully covered, so exit 0', async () => {
  const { status, stdout } = await runs.get('json');
  assert.is(status, 0);
  const report = JSON.parse(stdout) as CoverageJson;
  assert.is(report.full, true);
  assert.equal(report.packs.map((pack) => `${pack.id}/${pack.version}`).sort(), shippedPacks().loaded.packs.map((pack) => `${pack.pack.id}/${pack.pack.version}`).sort());
  for (const pack of report.packs) assert.ok(pack.full && pack.totals.rules.exercised === pack.totals.rules.total && pack.totals.rows.exercised === pack.totals.rows.total, pack.id);
  // The 2025-26 packs in detail.
  const income = report.packs.find((pack) => pack.id === 'rules-au-income-tax' && pack.version === '1.0.0');
  const payPack = report.packs.find((pack) => pack.id === 'rules-au-pay' && pack.version === '1.0.0');
  assert.equal([income!.id, income!.full, income!.totals], ['rules-au-income-tax', true, { rules: { exercised: 5, total: 5 }, rows: { exercised: 9, total: 9 } }]);
  assert.equal([payPack!.id, payPack!.full, payPack!.totals], ['rules-au-pay', true, { rules: { exercised: 4, total: 4 }, rows: { exercised: 16, total: 16 } }]);
  const gaps = income!.tables.flatMap((table) => table.periods.flatMap((period) => period.rows.filter((row) => row.examples.length === 0).map((row) => `${table.parameter} row ${row.row}`)));
  assert.equal(gaps, []);
  const scale2 = payPack!.tables.find((table) => table.parameter === 'withholding-scale-2')!;
  assert.equal(scale2.readBy, ['payg-withholding']);
  assert.equal(scale2.periods[0]!.rows[6]!.examples, ['nurse', 'teacher', 'cafe manager']);
});

test('the pay pack alone is fully covered: --require-full exits 0', async () => {
  const { status, stdout } = await runs.get('pay');
  assert.is(status, 0, stdout);
  assert.match(stdout, /^FULL: 1 pack, rules 4\/4, bracket table rows 16\/16 exercised by the examples$/m);
});

test('fixture: an unused rule, an unmatched row, a period outside the year, an example that cannot run; a broken pack is not measured (exit 1)', async () => {
  const { status, stdout } = await runs.get('fixture');
  assert.is(status, 1);
  const report = JSON.parse(stdout) as CoverageJson;
  const [bands, cycle] = report.packs;
  assert.equal([cycle!.id, cycle!.measured, cycle!.full], ['fixture-pay', false, false]);
  assert.is(bands!.id, 'fixture-bands');
  assert.equal(bands!.examples, { total: 3, ran: 2, couldNotRun: [{ name: 'facts that do not decode', error: bands!.examples.couldNotRun[0]!.error }] });
  assert.match(bands!.examples.couldNotRun[0]!.error, /^the facts do not decode: grossPay expected a Money object/);
  assert.equal(bands!.rules.map((rule) => [rule.id, rule.calculators, rule.examples]), [
    ['bonus-levy', [], []],
    ['levy', ['fixture.bands.net'], ['first band', 'top band']],
    ['net-pay', ['fixture.bands.net'], ['first band', 'top band']],
  ]);
  const [lastYear, thisYear] = bands!.tables[0]!.periods;
  assert.equal([lastYear!.inEffect, lastYear!.rows.every((row) => row.examples.length === 0)], [false, true]);
  assert.equal(thisYear!.inEffect, true);
  assert.equal(thisYear!.rows.map((row) => row.examples), [['first band'], [], ['top band']]);
  assert.equal(bands!.totals, { rules: { exercised: 2, total: 3 }, rows: { exercised: 2, total: 3 } }, 'rows of the period outside the year are not counted');
});

test.run();
