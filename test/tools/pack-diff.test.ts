import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse, parseDocument } from 'yaml';
import { loadPacks } from '../../engine/index.ts';
import { definitionSections } from '../../tools/pack-diff/definitions.ts';
import { formatDiff, hasChanges } from '../../tools/pack-diff/report.ts';
import { resultSection } from '../../tools/pack-diff/results.ts';
import { loadSides } from '../../tools/pack-diff/sides.ts';
import { PROJECT_ROOT, nextYearFixture, shippedPacks } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// pack-diff, spawned: the shipped pay pack against the next-year fixture, a made-up change to every
// kind of definition, git revisions of a temporary repository, and trouble; a pack against itself in-process.

const PAY = 'rulepacks/rules-au-pay/1.0.0';
const nextYear = nextYearFixture();
const NEXT_YEAR = relative(PROJECT_ROOT, nextYear.dir);
const { id: year, from, toExclusive } = nextYear.taxYear;
const OLD = 'test/fixtures/tool-packs/diff/old/fixture-pay/1.0.0';
const NEW = 'test/fixtures/tool-packs/diff/new/fixture-pay/1.1.0';

// A repository with two commits of one pack: the second raises the levy rate from 0.1 to 0.11.
let repo = '';
function makeRepository(): void {
  repo = mkdtempSync(join(tmpdir(), 'pack-diff-repo-'));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=pack-diff test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, stdio: 'pipe' });
  cpSync(join(PROJECT_ROOT, OLD), join(repo, 'packs', 'fixture-pay', '1.0.0'), { recursive: true });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  const rateFile = join(repo, 'packs/fixture-pay/1.0.0/parameters/levy-rate.yaml');
  writeFileSync(rateFile, readFileSync(rateFile, 'utf8').replace('value: "0.1"', 'value: "0.11"'));
  git('commit', '-q', '-a', '-m', 'second');
}

/**
 * The next-year pack arranged as the guide to a new year says: each parameter whose value changed
 * keeps the shipped pack's dated values and gets the new one beside them. Written to a temporary
 * folder; the new values and years are the fixture's, so nothing here names a year.
 */
let besideDir = '';
function makeAddedBeside(): void {
  const root = mkdtempSync(join(tmpdir(), 'pack-diff-beside-'));
  besideDir = join(root, 'rules-au-pay', nextYear.version);
  cpSync(join(PROJECT_ROOT, NEXT_YEAR), besideDir, { recursive: true });
  for (const name of readdirSync(join(besideDir, 'parameters'))) {
    const file = join(besideDir, 'parameters', name);
    const document = parseDocument(readFileSync(file, 'utf8'));
    const shipped = parse(readFileSync(join(PROJECT_ROOT, PAY, 'parameters', name), 'utf8')) as { values: unknown[] };
    const values = (document.toJS() as { values: unknown[] }).values;
    if (JSON.stringify(values) === JSON.stringify(shipped.values)) continue;
    document.set('values', [...shipped.values, ...values]);
    writeFileSync(file, document.toString());
  }
}

const runs = suiteRuns({
  nextYear: () => cli('pack-diff', [PAY, NEXT_YEAR]),
  addedBeside: () => cli('pack-diff', [PAY, besideDir]),
  fixture: () => cli('pack-diff', [OLD, NEW]),
  revisions: () => cli('pack-diff', ['packs/fixture-pay/1.0.0', '--rev', 'HEAD~1', '--rev', 'HEAD'], { cwd: repo }),
  badRevision: () => cli('pack-diff', ['packs/fixture-pay/1.0.0', '--rev', 'no-such-revision'], { cwd: repo }),
  help: () => cli('pack-diff', ['--help']),
});

test.before(() => {
  makeRepository();
  makeAddedBeside();
  runs.start();
});

test.after(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(dirname(dirname(besideDir)), { recursive: true, force: true });
});

test('shipped pay pack → next year: tax year, every changed coefficient with its period and source, and the example results that moved', async () => {
  const { status, stdout, stderr } = await runs.get('nextYear');
  assert.is(status, 1, stderr);
  assert.ok(stdout.startsWith(`old: rules-au-pay/1.0.0 (${PAY})\nnew: ${nextYear.rulePackVersion} (${NEXT_YEAR})\n`), stdout);
  for (const line of [
    `  ~ tax year: 2025-26 (2025-07-01 to before 2026-07-01) → ${year} (${from} to before ${toExclusive})`,
    `  + made-up-schedule-1-${year}: MADE UP for tests - not a real publication (ato-publication): Invented Schedule 1 coefficients for a pretend ${year} year, used only by the next-year test`,
    '  ~ withholding-scale-2 (Withholding coefficients, scale 2 (tax-free threshold claimed))',
    `      in effect for 2025-26 → ${year}:`,
    `        effective period: 2024-07-01 to before 2026-07-01 → ${from} to before ${toExclusive}`,
    `        source: nat-1004 (NAT 1004) → made-up-schedule-1-${year} (MADE UP for tests - not a real publication)`,
    '        row 7: below 2596 → 2650, a 0.3200 → 0.3000, b 176.5769 → 168.5000',
    '        row 9: a 0.4700 → 0.4500, b 650.6154 → 602.5000',
    '  - retail assistant (au.pay.take-home)',
    '      expect paygWithholding: 75600 ($756.00) → 70200 ($702.00)',
    '  ~ teacher (au.pay.take-home; example of old and new)',
    '      paygWithholding    $756.00 → $702.00  -5400 (-$54.00)',
    '      netPay             $2,706.00 → $2,760.00  +5400 (+$54.00)',
    '  ~ retail assistant (au.pay.take-home; example of old only)',
    'No change: Rules, Facts, Calculators',
  ]) {
    assert.ok(stdout.split('\n').includes(line), `${line}\n${stdout}`);
  }
  assert.match(stdout, /\n {2}~ teacher \(au\.pay\.take-home; example of old and new\)\n {6}paygWithholding {4}\$756\.00 → \$702\.00 {2}-5400 \(-\$54\.00\)\n {6}withholdingsTotal {2}\$756\.00 → \$702\.00 {2}-5400 \(-\$54\.00\)\n {6}netPay/);
  assert.match(stdout, /^1 example case gives the same figures in both versions$/m, 'below the nil band: nil in both');
  assert.match(stdout, /\nCHANGED: \d+ items differ\n$/);
});

test('a new dated value added beside the old one: the values in effect for each year compared row by row, the new value named by its period only', async () => {
  const [shipped, next] = loadPacks([join(PROJECT_ROOT, PAY), besideDir]).packs.map((report) => report.pack);
  const { status, stdout, stderr } = await runs.get('addedBeside');
  assert.is(status, 1, stderr);
  const parameters = stdout.slice(stdout.indexOf('\nParameters\n'), stdout.indexOf('\nRules'));
  const lines = parameters.split('\n');
  const scale2 = lines.indexOf('  ~ withholding-scale-2 (Withholding coefficients, scale 2 (tax-free threshold claimed))');
  assert.ok(scale2 >= 0, parameters);
  const next2 = lines.findIndex((line, index) => index > scale2 && line.startsWith('  ~ '));
  const block = lines.slice(scale2 + 1, next2 < 0 ? undefined : next2);
  const newValue = next!.parameters.find((parameter) => parameter.id === 'withholding-scale-2')!.values.at(-1)!;
  const newPeriod = `${newValue.effectivePeriod.from}${newValue.effectivePeriod.toExclusive === null ? '' : ` to before ${newValue.effectivePeriod.toExclusive}`}`;
  for (const line of [
    `      in effect for ${shipped!.taxYear.id} → ${next!.taxYear.id}:`,
    '        row 7: below 2596 → 2650, a 0.3200 → 0.3000, b 176.5769 → 168.5000',
    '        row 9: a 0.4700 → 0.4500, b 650.6154 → 602.5000',
    `      + value ${newValue.effectivePeriod.toExclusive === null ? `from ${newPeriod}` : newPeriod} (the value in effect for the new year, compared above)`,
  ]) {
    assert.ok(block.includes(line), `${line}\n${parameters}`);
  }
  assert.match(block.join('\n'), /^ {8}source: nat-1004 \(NAT 1004\) → \S+/m);
  // The whole new table is never printed: no line lists its rows.
  assert.not.match(parameters, /rows:/);
});

test('a made-up change of every kind: parameter periods and sources, the rule formula before and after, requires/sources/rounding, facts, calculators, examples', async () => {
  const { status, stdout } = await runs.get('fixture');
  assert.is(status, 1);
  const expected = `
Pack
  ~ version: 1.0.0 → 1.1.0

Sources
  + fixture-publication-2: Fixture publication 2 (made up) (ato-publication): A made-up later publication that raises the fixture's levy rate and adds a threshold

Parameters
  ~ levy-rate (Levy rate)
      in effect for 2025-26:
        effective period: from 2025-07-01 → 2025-07-01 to before 2026-07-01
        source: fixture-publication (Fixture publication 1 (made up)) → fixture-publication-2 (Fixture publication 2 (made up))
        value: 0.1 → 0.12
      + value from 2026-07-01: 0.13; source fixture-publication-2 (Fixture publication 2 (made up))

Rules
  ~ levy (Levy)
      formula before: if grossPay = 0 then 0 else grossPay × levy-rate
      formula after:  if grossPay ≤ 1000 then 0 else grossPay × levy-rate
      sources: [fixture-publication] → [fixture-publication, fixture-publication-2] (+fixture-publication-2)
      rounding: floor-cent → round-to-nearest-cent
      explanation: The levy is the gross pay times the levy rate, rounded down to the cent. → No levy on pay of $10.00 or less; above that, the gross pay times the levy rate, rounded to the nearest cent.

Facts
  ~ levy (Levy on the whole pay)
      title: Levy on the pay → Levy on the whole pay

Calculators
  ~ fixture.pay.net (Fixture net pay)
      description: Works out the made-up levy on one payment and the pay that remains. → Works out the made-up levy (with its threshold) on one payment and the pay that remains.

Examples (definitions)
  + below the threshold (fixture.pay.net), source fixture-working
  ~ one payment (fixture.pay.net)
      expect levy: 12345 ($123.45) → 14815 ($148.15)
      expect netPay: 111111 ($1,111.11) → 108641 ($1,086.41)

Example results (the examples of both versions, run through both)
  ~ one payment (fixture.pay.net; example of old and new)
      levy    $123.45 → $148.15  +2470 (+$24.70)
      netPay  $1,111.11 → $1,086.41  -2470 (-$24.70)
  ~ below the threshold (fixture.pay.net; example of new only)
      levy    $0.50 → $0.00  -50 (-$0.50)
      netPay  $4.50 → $5.00  +50 (+$0.50)
0 example cases give the same figures in both versions

CHANGED: 10 items differ
`;
  assert.is(stdout, `old: fixture-pay/1.0.0 (${OLD})\nnew: fixture-pay/1.1.0 (${NEW})\n${expected}`);
});

test('a pack against itself (in-process): no section has a change, every example case gives the same figures', () => {
  const report = shippedPacks().loaded.packs.find((candidate) => candidate.pack.id === 'rules-au-pay')!;
  const results = resultSection(report, report);
  const sections = [...definitionSections(report, report), results];
  assert.is(hasChanges(sections), false);
  assert.is(results.unchanged, 19);
  assert.ok(formatDiff('a', 'b', sections, results.unchanged).endsWith('19 example cases give the same figures in both versions\n\nNO CHANGE\n'));
});

test('a value confirmed as carried over (in-process): the confirmation is shown as a change of the value in effect', () => {
  const packs = shippedPacks().loaded.packs.filter((candidate) => candidate.pack.id === 'rules-au-income-tax');
  const [old, now] = ['1.0.0', '2.0.0'].map((version) => packs.find((candidate) => candidate.pack.version === version)!);
  const parameters = definitionSections(old!, now!).find((section) => section.title === 'Parameters')!;
  const at = parameters.lines.indexOf('~ medicare-levy-rate (Medicare levy rate)');
  assert.equal(parameters.lines.slice(at, at + 3), [
    '~ medicare-levy-rate (Medicare levy rate)',
    '    in effect for 2025-26 → 2026-27, source mla-1986-s6 (Medicare Levy Act 1986, section 6):',
    '      carried over: not confirmed → confirmed for 2026-27 by rules-au-income-tax maintainers (Section 6 sets the 2% rate for every income year and was not amended for 2026-27.)',
  ]);
});

test('git revisions: --rev OLD --rev NEW reads both versions from git', async () => {
  const { status, stdout, stderr } = await runs.get('revisions');
  assert.is(status, 1, stderr);
  assert.match(stdout, /^old: fixture-pay\/1\.0\.0 \(packs\/fixture-pay\/1\.0\.0 at HEAD~1, commit [0-9a-f]{12}\)\nnew: fixture-pay\/1\.0\.0 \(packs\/fixture-pay\/1\.0\.0 at HEAD, commit [0-9a-f]{12}\)\n/);
  assert.ok(stdout.includes('  ~ levy-rate (Levy rate)\n      in effect for 2025-26, source fixture-publication (Fixture publication 1 (made up)):\n        value: 0.1 → 0.11\n'), stdout);
  assert.ok(stdout.includes('  ~ one payment (fixture.pay.net; example of old and new)\n      levy    $123.45 → $135.80  +1235 (+$12.35)\n      netPay  $1,111.11 → $1,098.76  -1235 (-$12.35)\n'), stdout);
});

test('one --rev (in-process): the revision against the folder on disk, which has not changed since', () => {
  const sides = loadSides({ kind: 'revisions', path: join(repo, 'packs/fixture-pay/1.0.0'), old: 'HEAD', new: null });
  assert.ok(sides.ok, JSON.stringify(sides));
  const { old, new: now } = sides as Extract<typeof sides, { ok: true }>;
  assert.match(old.label, /^fixture-pay\/1\.0\.0 \(\S+ at HEAD, commit [0-9a-f]{12}\)$/);
  assert.match(now.label, /^fixture-pay\/1\.0\.0 \(\S+ on disk\)$/);
  assert.is(hasChanges([...definitionSections(old.report, now.report), resultSection(old.report, now.report)]), false);
});

test('trouble exits 2: a revision git does not know; a version with diagnostics (in-process) is refused with them', async () => {
  const revision = await runs.get('badRevision');
  assert.is(revision.status, 2);
  assert.is(revision.stdout, '');
  assert.match(revision.stderr, /pack-diff: `no-such-revision` is not a revision of the git repository at /);
  const cycle = loadSides({ kind: 'folders', old: OLD, new: 'test/fixtures/packs/cycle/fixture-pay/1.0.0' });
  assert.is(cycle.ok, false);
  const problems = (cycle as { problems: string[] }).problems;
  assert.match(problems[0]!, /has 1 diagnostic\(s\); run validate-pack on it first$/);
  assert.match(problems[1]!, /^ {2}\S*cycle\/fixture-pay\/1\.0\.0\/rules\/levy\.yaml:1:1 cycle /);
});

test('--help: both forms, what is compared, exit codes like diff', async () => {
  const { status, stdout } = await runs.get('help');
  assert.is(status, 0);
  for (const words of ['Usage: pack-diff <old-pack-folder> <new-pack-folder>', 'pack-diff <pack-folder> --rev <old-revision> [--rev <new-revision>]', 'Example results', 'Exit codes (like diff)', '0  no change', '1  changes', '2  trouble']) {
    assert.ok(stdout.includes(words), words);
  }
});

test.run();
