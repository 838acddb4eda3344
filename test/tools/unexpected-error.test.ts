import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';

// A tool that fails unexpectedly says so in a couple of lines. Left to Node.js, the report of an
// uncaught error quotes the source line it came from: in a bundle, that is a whole minified module
// (70–305 KB of code for a formula that overflowed the stack).

const STACK = /^\s+at .+:\d+:\d+\)?$/m;
const workDir = mkdtempSync(join(tmpdir(), 'tool-errors-'));
test.after(() => rmSync(workDir, { recursive: true, force: true }));

test('an unexpected error ends a tool with a short message and exit code 70, no stack and no code', () => {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', "import { runTool } from './bin/run-tool.js'; await runTool('no-such-tool');"], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.is(run.status, 70, run.stderr);
  assert.is(run.stdout, '');
  assert.not.match(run.stderr, STACK);
  assert.is(run.stderr.trim().split('\n').length, 2, run.stderr);
  assert.match(run.stderr, /^no-such-tool: internal error: Error: Cannot find module/);
});

test('validate-pack on a 2,000-term formula: exit 1 with the located diagnostic, in a few lines', () => {
  cpSync(join(SHIPPED_PACKS, 'rules-au-pay/1.0.0'), join(workDir, 'rules-au-pay/1.0.0'), { recursive: true });
  const file = join(workDir, 'rules-au-pay/1.0.0/rules/net-pay.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^formula: .*$/m, `formula: grossPay.amount ${Array(2000).fill('− withholdingsTotal').join(' ')}`));
  const run = spawnSync(process.execPath, ['bin/validate-pack.js', join(workDir, 'rules-au-pay/1.0.0')], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.is(run.status, 1, run.stderr.slice(0, 2000));
  assert.not.match(run.stderr, STACK);
  assert.match(run.stdout, /rules\/net-pay\.yaml:8:2026 expression rule `net-pay`: the formula nests more than 100 levels deep/);
  assert.ok(run.stdout.length + run.stderr.length < 4000, `${run.stdout.length + run.stderr.length} characters of output`);
});

test.run();
