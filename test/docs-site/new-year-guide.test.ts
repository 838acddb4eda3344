// Lane: services (npm run test:fast leaves this file out).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { startService, stopService } from '../helpers/service-process.ts';
import { calculate } from '../server/helpers.ts';
import { cli } from '../tools/cli.ts';
import { documentedRuns, fencedBlocks, normalizeOutput } from './cli-blocks.ts';

// "Change a rate for a new year" promises that a new year ships with edits under rulepacks/ and the
// changelog alone. This test keeps the promise honest: in a copy of the project it follows the guide
// (its commands and pack.yaml are read from the page), checks what validate-pack prints against the
// page, finishes a pay-only year with one coefficient changed, serves it with TAX_YEARS, and runs
// the suites that discover the packs and years they check (the ones a new pack used to break) on
// the copy. The changed coefficient and the figures worked from it are MADE UP for this test.

const GUIDE = 'docs-site/content/guides/change-a-rate-for-a-new-year.md';
const REVIEW_GUIDE = 'docs-site/content/guides/review-a-pack-with-validate-pack.md';
const CHANGELOG = 'docs-site/content/overview/changelog.md';
/**
 * What the copy takes from the project: everything but its history, its installed dependencies
 * (linked instead; the workspace packages are reached through them) and its scratch folder .tmp/
 * (ignored by git, and written meanwhile by tests in the other lane), so that a new top-level folder
 * a suite, a tool or the service reads is copied without an edit here.
 */
const COPIED = readdirSync(PROJECT_ROOT).filter((name) => !['.git', 'node_modules', 'packages', '.tmp'].includes(name));
/** The suites that find the packs and years they check, run on the copy in two processes of about equal length. */
const SUITES = ['server/conformance-years\\.test\\.ts$', '(engine/(conformance|carried-values)|docs-site/(cli-output|changelog))\\.test\\.ts$'];

const guide = readFileSync(join(PROJECT_ROOT, GUIDE), 'utf8');
/** Case 1 of the guide, a new tax year (case 2 copies a pack for a correction). */
const blocks = fencedBlocks(guide.slice(guide.indexOf('## Case 1'), guide.indexOf('## Case 2')));

/** The guide's step 2: `cp -R <latest> <next>` for each family. */
const copies = blocks
  .filter((block) => block.info === 'bash')
  .flatMap((block) => block.text.split('\n'))
  .filter((line) => line.startsWith('cp -R rulepacks/'))
  .map((line) => {
    const [, , from, to] = line.split(/\s+/);
    return { from: from!, to: to! };
  });
/** The guide's step 2: the version and year the copies' pack.yaml get. */
const header = blocks.find((block) => block.info === 'yaml' && /^taxYear:/m.test(block.text))!.text;
const field = (pattern: RegExp) => pattern.exec(header)![1]!;
const next = { version: field(/^version: (\S+)$/m), id: field(/^ {2}id: (\S+)$/m), from: field(/^ {2}from: (\S+)$/m), toExclusive: field(/^ {2}toExclusive: (\S+)$/m) };
/** The guide's step 3: validate-pack on the fresh copies, with its output. */
const [freshCopies] = documentedRuns(GUIDE, guide).filter((run) => run.place === 'new-year-copy');
/** The guide's step 9: the family whose figures are not out is removed. */
const removal = blocks.filter((block) => block.info === 'bash').flatMap((block) => block.text.split('\n')).find((line) => line.startsWith('rm -r rulepacks/'))!;

/** Runs a node script in the copy; resolves with its exit code and output. */
function runIn(cwd: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (status) => resolve({ status, output }));
  });
}

/** Replaces `old` by `now` in a file of the copy, which must hold it exactly once. */
function edit(root: string, file: string, old: string, now: string): void {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  assert.is(text.split(old).length, 2, `${file} holds \`${old}\` once`);
  writeFileSync(path, text.replace(old, now));
}

/**
 * Copies a file or folder with the times of every file and folder in it: a tool runs its bundle only
 * when no file or folder it is built from is newer (bin/run-tool.js), and cpSync keeps only files' times.
 */
function copyWithTimes(from: string, to: string): void {
  cpSync(from, to, { recursive: true, preserveTimestamps: true });
  const keepFolderTimes = (dir: string) => {
    for (const entry of readdirSync(join(from, dir), { withFileTypes: true })) if (entry.isDirectory()) keepFolderTimes(join(dir, entry.name));
    const { atime, mtime } = statSync(join(from, dir));
    utimesSync(join(to, dir), atime, mtime);
  };
  if (statSync(from).isDirectory()) keepFolderTimes('');
}

/** Every file under a folder, relative to it. */
function filesUnder(root: string, dir = ''): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

test('the guide names the copies, the new pack.yaml, the output of step 3 and the family left out', () => {
  assert.equal(copies.map(({ to }) => to.split('/').pop()), [next.version, next.version]);
  assert.ok(freshCopies, 'a `console new-year-copy` block');
  assert.equal(freshCopies!.args, copies.map(({ to }) => to));
  assert.ok(copies.some(({ to }) => removal === `rm -r ${to}`), removal);
});

test('a pay-only year copied from the latest, with one coefficient changed, ships with edits under rulepacks/ and the changelog alone', async () => {
  const root = mkdtempSync(join(tmpdir(), 'new-year-'));
  try {
    // dist/ goes too (when built), with its times, so that the copy's tools start from their bundles as the project's do.
    for (const path of COPIED) if (existsSync(join(PROJECT_ROOT, path))) copyWithTimes(join(PROJECT_ROOT, path), join(root, path));
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
    // The project as the guide describes it: no pack yet for a year after the one copied.
    for (const { from, to } of copies) {
      rmSync(join(root, to), { recursive: true, force: true });
      const family = join(root, from, '..');
      const startOf = (dir: string) => /^ {2}from: (\S+)$/m.exec(readFileSync(join(family, dir, 'pack.yaml'), 'utf8'))![1]!;
      const latest = startOf(from.split('/').pop()!);
      for (const version of readdirSync(family)) if (startOf(version) > latest) rmSync(join(family, version), { recursive: true });
    }

    // Step 2: copy, and give each copy its version and year.
    for (const { from, to } of copies) {
      cpSync(join(root, from), join(root, to), { recursive: true });
      const file = join(root, to, 'pack.yaml');
      const written = readFileSync(file, 'utf8');
      const oldYear = /^ {2}id: (\S+)$/m.exec(written)![1]!;
      // The year's id also names it in the description.
      const text = written
        .replaceAll(oldYear, next.id)
        .replace(/^version: \S+$/m, `version: ${next.version}`)
        .replace(/^ {2}from: \S+$/m, `  from: ${next.from}`)
        .replace(/^ {2}toExclusive: \S+$/m, `  toExclusive: ${next.toExclusive}`);
      writeFileSync(file, text);
    }

    // Step 3: validate-pack prints what the guide shows: the gaps, and the values carried unchanged.
    const fresh = await cli('validate-pack', freshCopies!.args, { cwd: root });
    assert.fixture(normalizeOutput(fresh.stdout), normalizeOutput(freshCopies!.output));
    assert.is(fresh.status, 1, 'the income tax copy has a parameter-gap');
    const reviewPage = readFileSync(join(PROJECT_ROOT, REVIEW_GUIDE), 'utf8');
    const quoted = fencedBlocks(reviewPage).find((block) => block.info === 'text' && block.text.includes(' carried-value '))!.text;
    assert.ok(fresh.stdout.split('\n').includes(quoted), `${REVIEW_GUIDE} quotes a line validate-pack prints: ${quoted}`);

    // Step 9: the year's rates are not out, so the income tax copy goes; the year is served for pay only.
    rmSync(join(root, removal.slice('rm -r '.length)), { recursive: true });
    const pay = copies.find(({ to }) => removal !== `rm -r ${to}`)!.to;

    // Step 4: a new source, and scale 2's value closed at the new year and followed by the new one,
    // with one coefficient changed (MADE UP): row "below 2596", b 181.7319 → 186.7319.
    edit(root, `${pay}/sources.yaml`, 'sources:\n', [
      'sources:',
      '  - id: made-up-schedule-2027',
      '    kind: ato-publication',
      '    reference: MADE UP for a test',
      `    title: A made-up withholding schedule for payments made from ${next.from}`,
      '  - id: worked-examples-made-up-2027',
      '    kind: internal-validation',
      '    reference: MADE UP for a test',
      '    title: Worked by hand from the made-up schedule',
      '',
    ].join('\n'));
    const scale2 = `${pay}/parameters/withholding-scale-2.yaml`;
    const openValue = /^ {2}- effectivePeriod: \{ from: (\S+), toExclusive: null \}\n[\s\S]*$/m.exec(readFileSync(join(root, scale2), 'utf8'))![0];
    const newValue = openValue
      .replace(/from: \S+, toExclusive: null/, `from: ${next.from}, toExclusive: null`)
      .replace(/source: \S+/, 'source: made-up-schedule-2027')
      .replace('{ below: 2596, a: "0.3200", b: "181.7319" }', '{ below: 2596, a: "0.3200", b: "186.7319" }');
    assert.not.equal(newValue.split('186.7319').length, 1, 'the coefficient to change is in the copy');
    edit(root, scale2, openValue, `${openValue.replace('toExclusive: null', `toExclusive: ${next.from}`)}${newValue}`);

    // Step 7: the old year's examples replaced by the new year's, worked by hand from the made-up schedule.
    //   Nurse, $1,654.00 a week, scale 2: x = 1654.99; y = 0.32 × 1654.99 − 186.7319 = 342.8649 → $343.
    //   Teacher, $3,462.00 a fortnight, scale 2: x = 1731.99; y = 554.2368 − 186.7319 = 367.5049 → $368
    //     a week → $736.00 a fortnight.
    //   Paramedic, $2,450.00 a week, scale 1 (carried unchanged): x = 2450.99, row below 3303:
    //     y = 0.39 × 2450.99 − 228.8816 = 727.0045 → $727, the published 2026-27 journey figure.
    rmSync(join(root, pay, 'examples'), { recursive: true });
    mkdirSync(join(root, pay, 'examples'));
    const money = (cents: number) => `{ _tag: Money, cents: ${cents}, currency: AUD }`;
    const facts = (cents: number, period: string, claimed: boolean) => `{ grossPay: { _tag: GrossPay, amount: ${money(cents)}, period: ${period} }, taxFreeThresholdClaimed: ${claimed} }`;
    writeFileSync(join(root, pay, 'examples', 'worked.yaml'), [
      'examples:',
      '  - name: nurse',
      '    calculator: au.pay.take-home',
      `    facts: ${facts(165400, 'weekly', true)}`,
      '    expect: { paygWithholding: 34300, withholdingsTotal: 34300, netPay: 131100 }',
      '    source: worked-examples-made-up-2027',
      '  - name: teacher',
      '    calculator: au.pay.withholdings',
      `    facts: ${facts(346200, 'fortnightly', true)}`,
      '    expect: { paygWithholding: 73600, withholdingsTotal: 73600 }',
      '    source: worked-examples-made-up-2027',
      '  - name: paramedic, second job',
      '    calculator: au.pay.take-home',
      `    facts: ${facts(245000, 'weekly', false)}`,
      '    expect: { paygWithholding: 72700, withholdingsTotal: 72700, netPay: 172300 }',
      '    source: worked-examples-made-up-2027',
      '',
    ].join('\n'), { flag: 'wx' });

    // Scale 2 is updated, so only scale 1 is still listed as carried.
    const updated = await cli('validate-pack', [pay], { cwd: root });
    assert.is(updated.status, 0, updated.stdout);
    assert.equal(updated.stdout.split('\n').filter((line) => line.includes(' carried-value ')).map((line) => line.split(' ')[0]), [`${pay}/parameters/withholding-scale-1.yaml:26:5`]);

    // Step 5: scale 1 is reviewed and confirmed for the new year.
    edit(root, `${pay}/parameters/withholding-scale-1.yaml`, '    source: nat-1004-2026\n', [
      '    source: nat-1004-2026',
      '    carriedOver:',
      `      taxYear: ${next.id}`,
      '      reviewedBy: Payroll analyst',
      '      reason: The made-up schedule changes scale 2 only.',
      '',
    ].join('\n'));
    const confirmed = await cli('validate-pack', [pay], { cwd: root });
    assert.is(confirmed.status, 0);
    assert.is(
      confirmed.stdout,
      [
        `pack rules-au-pay/${next.version} (${pay})`,
        '  12 files, 9 sources, 6 facts, 2 parameters, 4 rules, 2 calculators; examples 3/3 passed',
        '  clean',
        '',
        'OK: 1 pack clean, no diagnostics, 3/3 examples passed',
        '',
      ].join('\n'),
    );

    // Step 11: the changelog names the new pack.
    edit(root, CHANGELOG, '## Unreleased\n\n', `## Unreleased\n\n### Rule packs\n\n- ${next.id}: \`rules-au-pay/${next.version}\`, pay only.\n\n`);

    // Nothing else was edited.
    const differing = COPIED.filter((path) => path !== 'rulepacks' && path !== 'dist' && existsSync(join(root, path)))
      .flatMap((path) => (statSync(join(root, path)).isDirectory() ? filesUnder(root, path) : [path]))
      .filter((file) => !readFileSync(join(root, file)).equals(readFileSync(join(PROJECT_ROOT, file))));
    assert.equal(differing, [CHANGELOG]);

    // Served with TAX_YEARS, and checked by the suites that discover the packs and years, at once.
    const suites = Promise.all(SUITES.map((pattern) => runIn(root, [join(PROJECT_ROOT, 'node_modules/uvu/bin.js'), '-r', 'tsx', 'test', pattern])));
    const service = await startService({ RULEPACKS_DIR: join(root, 'rulepacks'), TAX_YEARS: `2025-26,${next.id}` });
    try {
      const answer = async (taxYear: string) => (await (await calculate(service.url, 'au.pay.take-home', { taxYear, facts: { grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 165400, currency: 'AUD' }, period: 'weekly' }, taxFreeThresholdClaimed: true } })).json()) as { report: Record<string, any> };
      const nextYear = await answer(next.id);
      assert.is(nextYear.report.rulePackVersion, `rules-au-pay/${next.version}`);
      assert.equal([nextYear.report.withholdingsTotal.cents, nextYear.report.netPay.cents], [34300, 131100]);
      // The published 2025-26 journey figure for the same nurse: $353.00 withheld.
      assert.is((await answer('2025-26')).report.withholdingsTotal.cents, 35300);
    } finally {
      await stopService(service);
    }
    const ran = await suites;
    const summary = ran.map(({ output }) => output.replace(/\x1b\[[0-9;]*m/g, '')).join('\n');
    assert.equal(ran.map(({ status }) => status), [0, 0], summary.slice(-4000));
    for (const suite of ['engine/conformance', 'engine/carried-values', 'server/conformance-years', 'docs-site/cli-output', 'docs-site/changelog']) assert.ok(summary.includes(`${suite}.test.ts`), `${suite} ran:\n${summary.slice(-2000)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
