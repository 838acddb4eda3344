import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { cli as run } from './cli.ts';

// The CLI is tested as reviewers run it: a separate node process through the bin shim, from the project root.

const FIXTURES = 'test/fixtures/packs';

const cli = (...args: string[]) => run('validate-pack', args);

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

test('the shipped packs: exit 0, both packs summarised, every example passes', async () => {
  const { status, stdout, stderr } = await cli();
  assert.is(status, 0, stderr);
  assert.ok(stdout.includes('pack rules-au-pay/1.0.0 (rulepacks/rules-au-pay/1.0.0)'), stdout);
  assert.ok(stdout.includes('pack rules-au-income-tax/1.0.0 (rulepacks/rules-au-income-tax/1.0.0)'), stdout);
  assert.match(stdout, /13 files, 6 sources, 6 facts, 2 parameters, 4 rules, 2 calculators; examples 19\/19 passed/);
  assert.match(stdout, /16 files, 9 sources, 6 facts, 6 parameters, 5 rules, 1 calculator; examples 9\/9 passed/);
  assert.match(stdout, /^OK: 2 packs clean, no diagnostics, 28\/28 examples passed$/m);
  assert.is(stderr, '');
});

test('a broken pack: exit 1 and a file:line:col kind message line', async () => {
  const { status, stdout } = await cli(`${FIXTURES}/missing-source-undeclared`);
  assert.is(status, 1);
  const line = `${FIXTURES}/missing-source-undeclared/fixture-pay/1.0.0/rules/levy.yaml:6:11 missing-source rule \`levy\` cites source \`fixture-publicaton\``;
  assert.ok(stdout.split('\n').some((text) => text.startsWith(line)), stdout);
  assert.ok(stdout.includes('1 example not run (fix the diagnostics first)'), stdout);
  assert.match(stdout, /^FAILED: 1 of 1 pack has problems \(1 diagnostic, 0 failing examples\)$/m);
});

test('a failing example: exit 1, with the expected and actual figures in cents and dollars', async () => {
  const { status, stdout } = await cli(`${FIXTURES}/failing-example`);
  assert.is(status, 1);
  assert.ok(stdout.includes(`${FIXTURES}/failing-example/fixture-pay/1.0.0/examples/worked.yaml:2:5 example \`one payment\` (fixture.pay.net)`), stdout);
  assert.ok(stdout.includes('netPay: expected 111110 ($1,111.10), actual 111111 ($1,111.11)'), stdout);
  assert.ok(stdout.includes('examples 0/1 passed'), stdout);
});

test('--json on the shipped packs: one document, ok true', async () => {
  const { status, stdout } = await cli('--json');
  assert.is(status, 0);
  const report = JSON.parse(stdout) as JsonReport;
  assert.is(report.ok, true);
  assert.equal(report.packs.map((pack) => `${pack.id}/${pack.version}`), ['rules-au-income-tax/1.0.0', 'rules-au-pay/1.0.0']);
  assert.equal(report.packs.map((pack) => pack.examples.length), [9, 19]);
  for (const pack of report.packs) {
    assert.equal(pack.diagnostics, []);
    assert.ok(pack.examples.every((example) => example.passed));
  }
});

test('--json on broken packs: ok false, diagnostics and mismatches in the document', async () => {
  const { status, stdout } = await cli(`${FIXTURES}/cycle`, `${FIXTURES}/failing-example`, '--json');
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

test('usage errors exit 2 with a hint on stderr: a missing path, a file, an empty folder, an unknown flag', async () => {
  const cases = [['no/such/folder'], ['package.json'], ['engine'], ['--jsn'], ['--graph', '--coverage']];
  const results = await Promise.all(cases.map((args) => cli(...args)));
  results.forEach(({ status, stdout, stderr }, index) => {
    assert.is(status, 2, cases[index]!.join(' '));
    assert.is(stdout, '');
    assert.ok(stderr.includes('validate-pack --help'), stderr);
  });
  assert.ok(results[3]!.stderr.includes('unknown option `--jsn`'));
  assert.ok(results[4]!.stderr.includes('choose one of `--graph`, `--coverage`'), results[4]!.stderr);
});

test('a pack file that cannot be read: exit 2', async () => {
  const root = mkdtempSync(join(tmpdir(), 'validate-pack-'));
  try {
    const dir = join(root, 'fixture-pay', '1.0.0');
    cpSync(join(PROJECT_ROOT, FIXTURES, 'valid', 'fixture-pay', '1.0.0'), dir, { recursive: true, filter: (source) => !source.endsWith('facts.yaml') });
    const { status, stdout } = await cli(root);
    assert.is(status, 2);
    assert.ok(stdout.includes('fixture-pay/1.0.0/facts.yaml:1:1 parse the file cannot be read'), stdout);
    assert.ok(stdout.includes('1 unreadable file'), stdout);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('--help: usage, checks, output format, every mode and exit codes; exit 0', async () => {
  const { status, stdout } = await cli('--help');
  assert.is(status, 0);
  for (const words of ['Usage: validate-pack [paths...] [--json] [--help]', '--watch', '--graph [--format mermaid|dot]', '--coverage [--json] [--require-full]', 'What it checks', 'file:line:col kind message', 'Exit codes']) {
    assert.ok(stdout.includes(words), words);
  }
});

test.run();
