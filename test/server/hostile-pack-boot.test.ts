import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BootFailure, loadCatalog } from '../../server/process/boot.ts';
import { SHIPPED_PACKS } from '../helpers/packs.ts';

// A boot on a pack with a formula far past the nesting limit stops with the pack's diagnostics,
// located, like any other broken pack: not with an exception that names no file.

const workDir = mkdtempSync(join(tmpdir(), 'hostile-boot-'));
test.after(() => rmSync(workDir, { recursive: true, force: true }));

test('a 2,000-term formula stops the boot with its file, line and column', () => {
  cpSync(join(SHIPPED_PACKS, 'rules-au-pay/1.0.0'), join(workDir, 'rules-au-pay/1.0.0'), { recursive: true });
  const file = join(workDir, 'rules-au-pay/1.0.0/rules/net-pay.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^formula: .*$/m, `formula: grossPay.amount ${Array(2000).fill('− withholdingsTotal').join(' ')}`));
  let failure: unknown;
  try {
    loadCatalog([workDir]);
  } catch (error) {
    failure = error;
  }
  assert.instance(failure, BootFailure, String(failure));
  assert.equal((failure as BootFailure).problems.length, 1, (failure as BootFailure).problems.join('\n'));
  assert.match((failure as BootFailure).problems[0]!, /rules-au-pay\/1\.0\.0\/rules\/net-pay\.yaml:8:2026 expression rule `net-pay`: the formula nests more than 100 levels deep/);
});

test.run();
