import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// The CLI is tested as reviewers run it: a separate node process through the bin shim, from the project root.

const FIXTURES = 'test/fixtures/packs';

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['bin/validate-pack.js', ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface JsonReport {
  ok: boolean;
  packs: {
    id: string;
    version: string;
    dir: string;
    counts: Record<string, number>;
    diagnostics: { kind: string; message: string; file: string; line: number; column: number }[];
    examples: { name: string; calculator: string; passed: boolean; file: string; line: number; mismatches: { fact: string; expected: unknown; actual: unknown }[]; error?: string }[];
  }[];
}

test('the shipped packs: exit 0, both packs summarised, every example passes', () => {
  const { status, stdout, stderr } = cli();
  assert.is(status, 0, stderr);
  assert.ok(stdout.includes('pack rules-au-pay/1.0.0 (rulepacks/rules-au-pay/1.0.0)'), stdout);
  assert.ok(stdout.includes('pack rules-au-income-tax/1.0.0 (rulepacks/rules-au-income-tax/1.0.0)'), stdout);
  assert.match(stdout, /12 files, 6 sources, 6 facts, 2 parameters, 4 rules, 2 calculators; examples 9\/9 passed/);
  assert.match(stdout, /^OK: 2 packs clean, no diagnostics, 18\/18 examples passed$/m);
  assert.is(stderr, '');
});

test('a broken pack: exit 1 and a file:line:col kind message line', () => {
  const { status, stdout } = cli(`${FIXTURES}/missing-source-undeclared`);
  assert.is(status, 1);
  const line = `${FIXTURES}/missing-source-undeclared/fixture-pay/1.0.0/rules/levy.yaml:6:11 missing-source rule \`levy\` cites source \`fixture-publicaton\``;
  assert.ok(stdout.split('\n').some((text) => text.startsWith(line)), stdout);
  assert.ok(stdout.includes('1 example not run (fix the diagnostics first)'), stdout);
  assert.match(stdout, /^FAILED: 1 of 1 pack has problems \(1 diagnostic, 0 failing examples\)$/m);
});

test('a failing example: exit 1, with the expected and actual figures in cents and dollars', () => {
  const { status, stdout } = cli(`${FIXTURES}/failing-example`);
  assert.is(status, 1);
  assert.ok(stdout.includes(`${FIXTURES}/failing-example/fixture-pay/1.0.0/examples/worked.yaml:2:5 example \`one payment\` (fixture.pay.net)`), stdout);
  assert.ok(stdout.includes('netPay: expected 111110 ($1,111.10), actual 111111 ($1,111.11)'), stdout);
  assert.ok(stdout.includes('examples 0/1 passed'), stdout);
});

test('--json on the shipped packs: one document, ok true', () => {
  const { status, stdout } = cli('--json');
  assert.is(status, 0);
  const report = JSON.parse(stdout) as JsonReport;
  assert.is(report.ok, true);
  assert.equal(report.packs.map((pack) => `${pack.id}/${pack.version}`), ['rules-au-income-tax/1.0.0', 'rules-au-pay/1.0.0']);
  for (const pack of report.packs) {
    assert.equal(pack.diagnostics, []);
    assert.is(pack.examples.length, 9);
    assert.ok(pack.examples.every((example) => example.passed));
  }
});

test('--json on broken packs: ok false, diagnostics and mismatches in the document', () => {
  const { status, stdout } = cli(`${FIXTURES}/cycle`, `${FIXTURES}/failing-example`, '--json');
  assert.is(status, 1);
  const report = JSON.parse(stdout) as JsonReport;
  assert.is(report.ok, false);
  const [cycle, failing] = report.packs;
  assert.equal(
    cycle!.diagnostics.map(({ kind, file, line, column }) => ({ kind, file, line, column })),
    [{ kind: 'cycle', file: `${FIXTURES}/cycle/fixture-pay/1.0.0/rules/levy.yaml`, line: 1, column: 1 }],
  );
  assert.equal(cycle!.examples, []);
  assert.equal(failing!.examples[0]!.mismatches, [{ fact: 'netPay', expected: 111110, actual: 111111 }]);
  assert.is(failing!.examples[0]!.line, 2);
});

test('usage errors exit 2 with a hint on stderr: a missing path, a file, an empty folder, an unknown flag', () => {
  for (const args of [['no/such/folder'], ['package.json'], ['engine'], ['--jsn']]) {
    const { status, stdout, stderr } = cli(...args);
    assert.is(status, 2, args.join(' '));
    assert.is(stdout, '');
    assert.ok(stderr.includes('validate-pack --help'), stderr);
  }
  assert.ok(cli('--jsn').stderr.includes('unknown option `--jsn`'));
});

test('a pack file that cannot be read: exit 2', () => {
  const root = mkdtempSync(join(tmpdir(), 'validate-pack-'));
  try {
    const dir = join(root, 'fixture-pay', '1.0.0');
    cpSync(join(PROJECT_ROOT, FIXTURES, 'valid', 'fixture-pay', '1.0.0'), dir, { recursive: true, filter: (source) => !source.endsWith('facts.yaml') });
    const { status, stdout } = cli(root);
    assert.is(status, 2);
    assert.ok(stdout.includes('fixture-pay/1.0.0/facts.yaml:1:1 parse the file cannot be read'), stdout);
    assert.ok(stdout.includes('1 unreadable file'), stdout);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--help: usage, checks, output format and exit codes; exit 0', () => {
  const { status, stdout } = cli('--help');
  assert.is(status, 0);
  for (const words of ['Usage: validate-pack [paths...] [--json] [--help]', 'What it checks', 'file:line:col kind message', 'Exit codes']) {
    assert.ok(stdout.includes(words), words);
  }
});

test.run();
