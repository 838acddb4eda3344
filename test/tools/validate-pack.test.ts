import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, shippedPacks } from '../helpers/packs.ts';
import { checkPacks, selectionProblems } from '../../tools/validate-pack/check.ts';
import { cli as run, suiteRuns } from './cli.ts';

// The CLI is tested as reviewers run it: a separate node process through the bin shim, from the project root.

const FIXTURES = 'test/fixtures/packs';

const cli = (...args: string[]) => run('validate-pack', args);
const USAGE_CASES = [['no/such/folder'], ['--jsn'], ['--graph', '--coverage']];
// A copy of the valid fixture pack without its facts file.
let unreadable = '';
// The valid fixture pack (2025-26) and a copy of it for 2026-27, its open-ended levy rate carried over.
let carried = '';

const runs = suiteRuns({
  shipped: () => cli(),
  broken: () => cli(`${FIXTURES}/missing-source-undeclared`, `${FIXTURES}/failing-example`),
  json: () => cli('--json'),
  brokenJson: () => cli(`${FIXTURES}/cycle`, `${FIXTURES}/failing-example`, '--json'),
  unreadable: () => cli(unreadable),
  help: () => cli('--help'),
  carried: () => run('validate-pack', ['--json', 'fixture-pay/2.0.0'], { cwd: carried }),
  usage: () => Promise.all(USAGE_CASES.map((args) => cli(...args))),
});

test.before(() => {
  unreadable = mkdtempSync(join(tmpdir(), 'validate-pack-'));
  cpSync(join(PROJECT_ROOT, FIXTURES, 'valid', 'fixture-pay', '1.0.0'), join(unreadable, 'fixture-pay', '1.0.0'), { recursive: true, filter: (source) => !source.endsWith('facts.yaml') });
  carried = mkdtempSync(join(tmpdir(), 'validate-pack-'));
  cpSync(join(PROJECT_ROOT, FIXTURES, 'valid', 'fixture-pay', '1.0.0'), join(carried, 'fixture-pay', '1.0.0'), { recursive: true });
  cpSync(join(carried, 'fixture-pay', '1.0.0'), join(carried, 'fixture-pay', '2.0.0'), { recursive: true });
  const packFile = join(carried, 'fixture-pay', '2.0.0', 'pack.yaml');
  writeFileSync(packFile, readFileSync(packFile, 'utf8').replace('version: 1.0.0', 'version: 2.0.0').replace('id: 2025-26\n  from: 2025-07-01\n  toExclusive: 2026-07-01', 'id: 2026-27\n  from: 2026-07-01\n  toExclusive: 2027-07-01'));
  runs.start();
});
test.after(() => {
  rmSync(unreadable, { recursive: true, force: true });
  rmSync(carried, { recursive: true, force: true });
});

interface JsonReport {
  ok: boolean;
  packs: {
    id: string;
    version: string;
    dir: string;
    counts: Record<string, number>;
    diagnostics: { kind: string; message: string; file: string; line: number; column: number }[];
    notices: { kind: string; message: string; file: string; line: number; column: number }[];
    examples: { name: string; calculator: string; passed: boolean; file: string; line: number; mismatches: { fact: string; expected: unknown; actual: unknown }[]; error?: string }[];
  }[];
}

/** Every shipped pack as `id/version`, and how many worked examples each has, in the order validate-pack lists them. */
const shipped = shippedPacks()
  .loaded.packs.map((report) => ({ name: `${report.pack.id}/${report.pack.version}`, examples: report.pack.examples.length }))
  .sort((a, b) => a.name.localeCompare(b.name));
const shippedExamples = shipped.reduce((sum, pack) => sum + pack.examples, 0);

test('the shipped packs: exit 0, every pack summarised, every example passes', async () => {
  const { status, stdout, stderr } = await runs.get('shipped');
  assert.is(status, 0, stderr);
  assert.ok(stdout.includes('pack rules-au-pay/1.0.0 (rulepacks/rules-au-pay/1.0.0)'), stdout);
  assert.ok(stdout.includes('pack rules-au-income-tax/1.0.0 (rulepacks/rules-au-income-tax/1.0.0)'), stdout);
  assert.match(stdout, /13 files, 6 sources, 6 facts, 2 parameters, 4 rules, 2 calculators; examples 19\/19 passed/);
  assert.match(stdout, /17 files, 9 sources, 6 facts, 6 parameters, 5 rules, 1 calculator; examples 11\/11 passed/);
  for (const { name } of shipped) assert.ok(stdout.includes(`pack ${name} (rulepacks/${name})`), name);
  assert.ok(stdout.includes(`\nOK: ${shipped.length} packs clean, no diagnostics, ${shippedExamples}/${shippedExamples} examples passed\n`), stdout);
  assert.is(stderr, '');
});

test('a broken pack and a failing example: exit 1, a file:line:col kind message line, the figures in cents and dollars', async () => {
  const { status, stdout } = await runs.get('broken');
  assert.is(status, 1);
  const line = `${FIXTURES}/missing-source-undeclared/fixture-pay/1.0.0/rules/levy.yaml:6:11 missing-source rule \`levy\` cites source \`fixture-publicaton\``;
  assert.ok(stdout.split('\n').some((text) => text.startsWith(line)), stdout);
  assert.ok(stdout.includes('1 example not run (fix the diagnostics first)'), stdout);
  assert.ok(stdout.includes(`${FIXTURES}/failing-example/fixture-pay/1.0.0/examples/worked.yaml:2:5 example \`one payment\` (fixture.pay.net)`), stdout);
  assert.ok(stdout.includes('netPay: expected 111110 ($1,111.10), actual 111111 ($1,111.11)'), stdout);
  assert.ok(stdout.includes('examples 0/1 passed'), stdout);
  assert.match(stdout, /^FAILED: 2 of 2 packs have problems \(1 diagnostic, 1 failing example\)$/m);
});

test('--json on the shipped packs: one document, ok true', async () => {
  const { status, stdout } = await runs.get('json');
  assert.is(status, 0);
  const report = JSON.parse(stdout) as JsonReport;
  assert.is(report.ok, true);
  assert.equal(report.packs.map((pack) => `${pack.id}/${pack.version}`), shipped.map((pack) => pack.name));
  assert.equal(report.packs.map((pack) => pack.examples.length), shipped.map((pack) => pack.examples));
  for (const pack of report.packs) {
    assert.equal(pack.diagnostics, []);
    assert.equal(pack.notices, []);
    assert.ok(pack.examples.every((example) => example.passed));
  }
});

test('--json on a copy for the next year: its carried value is a notice, and the copy is still ok', async () => {
  const { status, stdout } = await runs.get('carried');
  assert.is(status, 0);
  const report = JSON.parse(stdout) as JsonReport;
  assert.is(report.ok, true);
  assert.equal(report.packs[0]!.diagnostics, []);
  assert.equal(
    report.packs[0]!.notices.map(({ kind, file, line, column }) => ({ kind, file, line, column })),
    [{ kind: 'carried-value', file: 'fixture-pay/2.0.0/parameters/levy-rate.yaml', line: 8, column: 5 }],
  );
  assert.ok(report.packs[0]!.notices[0]!.message.startsWith('parameter `levy-rate`: the value from 2025-07-01 without end is carried into 2026-27 unchanged from fixture-pay/1.0.0 (2025-26).'), report.packs[0]!.notices[0]!.message);
});

test('--json on broken packs: ok false, diagnostics and mismatches in the document', async () => {
  const { status, stdout } = await runs.get('brokenJson');
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

test('usage errors exit 2 with a hint on stderr: a missing path, an unknown flag, two modes', async () => {
  const results = await runs.get('usage');
  results.forEach(({ status, stdout, stderr }, index) => {
    assert.is(status, 2, USAGE_CASES[index]!.join(' '));
    assert.is(stdout, '');
    assert.ok(stderr.includes('validate-pack --help'), stderr);
  });
  assert.ok(results[0]!.stderr.includes('validate-pack: `no/such/folder` does not exist'), results[0]!.stderr);
  assert.ok(results[1]!.stderr.includes('unknown option `--jsn`'));
  assert.ok(results[2]!.stderr.includes('choose one of `--graph`, `--coverage`'), results[2]!.stderr);
});

test('paths that hold no pack (in-process): a file, and a folder without pack.yaml, are usage problems', () => {
  const outcome = checkPacks(['package.json', 'engine']);
  assert.ok(!outcome.ok);
  assert.equal(selectionProblems(outcome as { missing: string[]; empty: string[] }), ['`package.json` is not a folder', 'no pack (a folder with pack.yaml) in `engine`']);
});

test('a pack file that cannot be read: exit 2', async () => {
  const { status, stdout } = await runs.get('unreadable');
  assert.is(status, 2);
  assert.ok(stdout.includes('fixture-pay/1.0.0/facts.yaml:1:1 parse the file cannot be read'), stdout);
  assert.ok(stdout.includes('1 unreadable file'), stdout);
});

test('--help: usage, checks, output format, every mode and exit codes; exit 0', async () => {
  const { status, stdout } = await runs.get('help');
  assert.is(status, 0);
  for (const words of ['Usage: validate-pack [paths...] [--json] [--help]', '--watch', '--graph [--format mermaid|dot]', '--coverage [--json] [--require-full]', 'What it checks', 'file:line:col kind message', 'Exit codes']) {
    assert.ok(stdout.includes(words), words);
  }
});

test.run();
