import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readStartCommand, withNodeFlag, withoutNodeFlag } from '../../bench/lib/start-command.ts';

// The benches run `node` themselves but must run the service as `npm start` does: they read
// scripts/start.sh. These tests keep that reading honest when the script changes.

const work = mkdtempSync(join(tmpdir(), 'tax-rules-start-command-'));
const script = (text: string) => {
  const file = join(work, `start-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, text);
  return file;
};

test('the flags before dist/server.js and the defaults the script exports are read', () => {
  delete process.env.TAX_RULES_TEST_DEFAULT;
  const file = script('#!/bin/sh\nexport TAX_RULES_TEST_DEFAULT="${TAX_RULES_TEST_DEFAULT:-4096}"\nexport OTHER=fixed\nexec node --max-semi-space-size=8 --stack-size=900 dist/server.js\n');
  const command = readStartCommand(file);
  assert.equal(command.nodeFlags, ['--max-semi-space-size=8', '--stack-size=900']);
  assert.equal(command.env, { TAX_RULES_TEST_DEFAULT: '4096' });
});

test("an operator's own setting of an exported default wins, as it does in the script", () => {
  process.env.TAX_RULES_TEST_DEFAULT = '65536';
  try {
    assert.equal(readStartCommand(script('export TAX_RULES_TEST_DEFAULT="${TAX_RULES_TEST_DEFAULT:-4096}"\nexec node dist/server.js\n')).env, { TAX_RULES_TEST_DEFAULT: '65536' });
  } finally {
    delete process.env.TAX_RULES_TEST_DEFAULT;
  }
});

test('a script that does not end in exec node … dist/server.js is refused, not read as no flags', () => {
  assert.throws(() => readStartCommand(script('#!/bin/sh\nnode dist/server.js\n')), /exec node/);
});

test("the project's start script is read: its heap flags and malloc threshold", () => {
  const command = readStartCommand();
  assert.ok(command.nodeFlags.some((flag) => flag.startsWith('--max-semi-space-size=')), command.nodeFlags.join(' '));
  assert.ok(command.nodeFlags.some((flag) => flag.startsWith('--heap-growing-percent=')), command.nodeFlags.join(' '));
  assert.ok('MALLOC_MMAP_THRESHOLD_' in command.env, JSON.stringify(command.env));
});

test('a flag is taken out of the start command for an A/B, and a flag the command lacks is refused', () => {
  const command = readStartCommand(script('exec node --max-semi-space-size=8 --heap-growing-percent=20 dist/server.js\n'));
  assert.equal(withoutNodeFlag(command, '--heap-growing-percent=20').nodeFlags, ['--max-semi-space-size=8']);
  assert.throws(() => withoutNodeFlag(command, '--heap-growing-percent=50'), /no flag --heap-growing-percent=50/);
});

test('a flag is added after the start command\'s own, so that it wins, and a word that is no flag is refused', () => {
  const command = readStartCommand(script('exec node --max-semi-space-size=8 dist/server.js\n'));
  assert.equal(withNodeFlag(command, '--max-semi-space-size=2').nodeFlags, ['--max-semi-space-size=8', '--max-semi-space-size=2']);
  assert.equal(command.nodeFlags, ['--max-semi-space-size=8']);
  assert.throws(() => withNodeFlag(command, 'max-semi-space-size=2'), /starts with --/);
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
