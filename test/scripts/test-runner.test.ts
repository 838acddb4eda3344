import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// The suite's own runner (scripts/test.js and its lanes) on a project of made-up test files: what it
// reports and how it exits decide whether a failing test can fail `npm test`.

const FILES: Record<string, string> = {
  'passes.test.ts': `import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('one', () => assert.ok(true));\ntest('two', () => assert.is(1 + 1, 2));\ntest.run();\n`,
  'fails.test.ts': `import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('holds', () => assert.ok(true));\ntest('does not hold', () => assert.is(1 + 1, 3, 'the sum'));\ntest.run();\n`,
  'skips.test.ts': `import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('runs', () => assert.ok(true));\ntest.skip('cannot run here', () => assert.ok(false));\ntest.run();\n`,
  'ends-its-process.test.ts': `import { test } from 'uvu';\ntest('leaves', () => process.exit(3));\ntest.run();\n`,
  'nested/also-passes.test.ts': `import { test } from 'uvu';\nimport * as assert from 'uvu/assert';\ntest('three', () => assert.ok(true));\ntest.run();\n`,
};

let root: string;

test.before(() => {
  root = mkdtempSync(join(tmpdir(), 'tax-rules-test-runner-'));
  mkdirSync(join(root, 'scripts'));
  for (const script of ['test.js', 'test-lane.js']) copyFileSync(join(PROJECT_ROOT, 'scripts', script), join(root, 'scripts', script));
  // Nothing to build in this project.
  writeFileSync(join(root, 'scripts', 'build-if-stale.sh'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(root, 'scripts', 'build-if-stale.sh'), 0o755);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'runner-fixture', private: true, type: 'module' }));
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(join(root, 'test', name, '..'), { recursive: true });
    writeFileSync(join(root, 'test', name), text);
  }
});

test.after(() => rmSync(root, { recursive: true, force: true }));

function runner(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/test.js', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, TEST_LANES: '2' }, timeout: 60_000 });
}

test('a failing assertion and a file whose process ends fail the run; every other file still runs and is counted', () => {
  const run = runner();
  assert.is(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /5 test files in 2 lanes/);
  const failedLine = run.stdout.split('\n').find((line) => line.includes('Failed in:')) ?? '';
  assert.equal(failedLine.replace(/.*Failed in: /, '').split(', ').sort(), ['test/ends-its-process.test.ts', 'test/fails.test.ts']);
  assert.match(run.stdout, /the sum/);
  assert.match(run.stdout, /test\/ends-its-process\.test\.ts: its lane ended \(exit code 3\) before the file was done/);
  // passes 2, fails 2 (1 passed), skips 1 and 1 skipped (uvu counts a skipped test apart), also-passes 1;
  // the file that ended reports nothing.
  assert.match(run.stdout, /Total: {5}6\n {2}Passed: {4}5\n {2}Skipped: {3}1/);
  for (const name of ['test/passes.test.ts', 'test/skips.test.ts', 'test/nested/also-passes.test.ts']) assert.match(run.stdout, new RegExp(`${name.replace(/\./g, '\\.')} \\(`), name);
});

test('words choose the files by path; a run of passing files exits 0; a word that matches nothing is a usage error', () => {
  const passing = runner('passes');
  assert.is(passing.status, 0, passing.stdout + passing.stderr);
  assert.match(passing.stdout, /2 test files in 2 lanes; 3 others left out/);
  assert.match(passing.stdout, /Total: {5}3\n {2}Passed: {4}3\n {2}Skipped: {3}0/);
  const nothing = runner('no-such-file');
  assert.is(nothing.status, 2);
  assert.match(nothing.stderr, /no test file matches no-such-file/);
});

test.run();
