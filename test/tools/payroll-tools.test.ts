import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SHIPPED_PACKS } from '../helpers/packs.ts';
import { cli } from './cli.ts';

// The analyst's loop on the payroll packs. Expected amounts are the tax office's NAT 3539 sample
// data: weekly $1,282.00, scale 2, with a study loan, withholds $260.00 under the July 2025 edition
// and $234.00 under the September 2025 edition (in force from 24 September 2025).
const PACK_2025_26 = 'rulepacks/rules-au-payroll/1.0.0';
const facts = (paymentDate: string) =>
  JSON.stringify({
    grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 128200, currency: 'AUD' }, period: 'weekly' },
    paymentDate,
    residency: 'resident',
    tfnProvided: true,
    taxFreeThresholdClaimed: true,
    medicareLevyExemption: 'none',
    studyLoan: true,
  });

test('validate-pack --coverage --require-full: the worked examples reach every row of every table of every payroll pack', async () => {
  const ran = await cli('validate-pack', ['--coverage', '--require-full', '--json', 'rulepacks/rules-au-payroll']);
  assert.is(ran.status, 0, ran.stderr);
  const report = JSON.parse(ran.stdout) as { packs: { id: string; tables: { parameter: string; periods: { inEffect: boolean; rows: { examples: string[] }[] }[] }[] }[] };
  assert.is(report.packs.length, 3);
  for (const pack of report.packs) {
    // Ten tables of scales 1, 2, 3, 5 and 6: Schedule 1's and Schedule 8's.
    assert.is(pack.tables.length, 10);
    for (const table of pack.tables) {
      const inEffect = table.periods.filter((period) => period.inEffect);
      assert.ok(inEffect.length > 0, table.parameter);
      for (const period of inEffect) for (const row of period.rows) assert.ok(row.examples.length > 0, table.parameter);
    }
  }
  // The 2025-26 pack's study-loan tables count both editions' rows.
  const year = report.packs.find((pack) => pack.tables.some((table) => table.periods.filter((period) => period.inEffect).length === 2));
  assert.ok(year, 'a pack whose tables have two values in effect in its year');
});

test('explain shows the scale, x, the row, y before rounding and the rounding, in the year of the payment date', async () => {
  const ran = await cli('explain', ['au.payroll.withholding', '--facts', facts('2025-09-30')]);
  assert.is(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /AU 2025-26, rule pack rules-au-payroll\/1\.0\.0/);
  assert.match(ran.stdout, /withheld\s+\$234\.00/);
  assert.match(ran.stdout, /scale\s+2/);
  assert.match(ran.stdout, /\[rule withholding-scale\][\s\S]*result\s+2 /);
  assert.match(ran.stdout, /\[rule weekly-earnings\][\s\S]*result\s+\$1,282\.99/);
  assert.match(ran.stdout, /schedule-8-scale-2 [\s\S]*row \d+: below \d+, a [\d.]+, b [\d.]+\n\s+in effect 2025-09-24 to before 2026-07-01; source nat-3539-2025-09/);
  assert.match(ran.stdout, /before rounding \$\d+\.\d+\n\s+result\s+\$234\.00\s+\(rounding: ato-withholding-rounding\)/);
});

test('explain --against a day: the same payment on the last day of the July 2025 edition', async () => {
  const ran = await cli('explain', ['au.payroll.withholding', '--facts', facts('2025-09-24'), '--against', '2025-09-23']);
  assert.is(ran.status, 0, ran.stderr);
  assert.match(ran.stdout, /withheld\s+\$260\.00\s+\$234\.00\s+-\$26\.00/);
  assert.match(ran.stdout, /source nat-3539-2025-07 \(NAT 3539\) → nat-3539-2025-09 \(NAT 3539\)/);
});

test('pack-diff shows the September 2025 change row by row', async () => {
  // The 2025-26 pack as it would have stood before the change: the July 2025 tables all year.
  const root = mkdtempSync(join(tmpdir(), 'payroll-before-'));
  try {
    const before = join(root, 'rules-au-payroll', '1.0.0');
    cpSync(join(SHIPPED_PACKS, 'rules-au-payroll', '1.0.0'), before, { recursive: true });
    for (const name of readdirSync(join(before, 'parameters')).filter((file) => file.startsWith('schedule-8-'))) {
      const path = join(before, 'parameters', name);
      const text = readFileSync(path, 'utf8');
      const cut = text.indexOf('  - effectivePeriod: { from: 2025-09-24');
      assert.ok(cut > 0, name);
      writeFileSync(path, text.slice(0, cut).replace('toExclusive: 2025-09-24', 'toExclusive: 2026-07-01'));
    }
    const ran = await cli('pack-diff', [before, PACK_2025_26]);
    assert.is(ran.status, 1, ran.stderr);
    assert.match(ran.stdout, /~ schedule-8-scale-2 /);
    assert.match(ran.stdout, /in effect for 2025-26, 2025-09-24 to before 2026-07-01:\n\s+effective period: 2025-07-01 to before 2026-07-01 → 2025-09-24 to before 2026-07-01\n\s+source: nat-3539-2025-07 \(NAT 3539\) → nat-3539-2025-09 \(NAT 3539\)\n\s+row 6: below 1079 → 1282\n\s+row 7: below 1246 → 1288, a 0\.3327 → 0\.3200, b 180\.0385 → 176\.5769/);
    assert.match(ran.stdout, /- row 27: below none, a 0\.5700, b 650\.6154/);
    assert.not.match(ran.stdout, /~ schedule-1-/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
