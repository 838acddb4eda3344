import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCatalog, loadPacks, readServingDefaults, type PackDef } from '../../engine/index.ts';
import { dollars } from '../../tools/lib/money.ts';
import { compareRuns } from '../../tools/explain/comparison.ts';
import { selectPlan } from '../../tools/explain/select.ts';
import { nextYearFixture, payFacts, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// explain --against: one set of facts in two contexts. Here the shipped packs against the made-up
// other-year pay pack. The old figures come from the shared 2025-26 journeys (copied into
// test/fixtures/conformance), the new ones from the made-up pack's examples, worked by hand; the years
// are read from the packs, so moving the made-up pack to another year needs no edit here.
const JOURNEYS = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/conformance/journeys.json', import.meta.url)), 'utf8')) as {
  pay: { name: string; grossCents: number; period: string; taxFreeThresholdClaimed: boolean; withheldCents: number; netCents: number }[];
};
const nextYear = nextYearFixture();
const loaded = loadPacks([SHIPPED_PACKS, nextYear.root], { displayRoot: PROJECT_ROOT });
const catalog = createCatalog(loaded.packs.flatMap((report) => report.plans));
const defaultYear = readServingDefaults([SHIPPED_PACKS]).defaults!.defaultTaxYear;
const otherPack = loaded.packs.find((report) => report.pack.dir === nextYear.dir)!.pack;
const otherYear = otherPack.taxYear.id;
const otherExample = (name: string, calculator: string): PackDef['examples'][number] | undefined => otherPack.examples.find((example) => example.name === name && example.calculator === calculator);
const teacher = JOURNEYS.pay.find((journey) => journey.name === 'teacher')!;
const teacherFacts = JSON.stringify(payFacts(teacher.grossCents, teacher.period, teacher.taxFreeThresholdClaimed));
const bothFolders = ['--packs', 'rulepacks', '--packs', nextYear.root];

const runs = suiteRuns({
  text: () => cli('explain', ['au.pay.take-home', '--facts', teacherFacts, ...bothFolders, '--context', `AU/${otherYear}`, '--against', `AU/${defaultYear}`]),
  json: () => cli('explain', ['au.pay.withholdings', '--facts', teacherFacts, ...bothFolders, '--context', `AU/${otherYear}`, '--against', `AU/${defaultYear}`, '--json']),
  defaultYear: () => cli('explain', ['au.pay.take-home', '--facts', teacherFacts, ...bothFolders]),
  unknownAgainst: () => cli('explain', ['au.income-tax.annual', '--facts', '{}', ...bothFolders, '--context', `AU/${defaultYear}`, '--against', `AU/${otherYear}`]),
});
test.before(runs.start);

test('text: both results with the difference of every figure, then each step that differs, old → new', async () => {
  const { status, stdout, stderr } = await runs.get('text');
  assert.is(status, 0, stderr);
  const newNet = otherExample('teacher', 'au.pay.take-home')!.expect.netPay as number;
  const lines = stdout.split('\n');
  assert.is(lines[0], `Take-home pay (au.pay.take-home): AU ${otherYear} against AU ${defaultYear}`);
  const figure = (label: string) => lines.find((line) => line.startsWith(`  ${label} `))?.trim().split(/\s{2,}/);
  const difference = newNet - teacher.netCents;
  assert.equal(figure('netPay'), ['netPay', dollars(teacher.netCents), dollars(newNet), difference > 0 ? `+${dollars(difference)}` : dollars(difference)]);
  assert.equal(figure('grossPay'), ['grossPay', dollars(teacher.grossCents), dollars(teacher.grossCents)]);
  const expected = [
    `Steps that differ, AU ${defaultYear} → AU ${otherYear}`,
    '● PAYG withholding  [rule payg-withholding]',
    '  parameters      withholding-scale-2 (Withholding coefficients, scale 2 (tax-free threshold claimed))',
    '                      row 7: below 2596 → 2650, a 0.3200 → 0.3000, b 176.5769 → 168.5000',
    // Worked by hand: x = 1731.99; 0.32 × x − 176.5769 = 377.6599 and 0.30 × x − 168.50 = 351.097 dollars.
    '  intermediate    weeklyWithholding = 37800 (before rounding 37765.99) → 35100 (before rounding 35109.7)',
    `  result          ${dollars(teacher.withheldCents)} → ${dollars(otherExample('teacher', 'au.pay.take-home')!.expect.paygWithholding as number)}`,
    '● Take-home pay  [rule net-pay]',
    `  result          ${dollars(teacher.netCents)} → ${dollars(newNet)}`,
    'Steps with the same inputs and result: taxable-pay',
  ];
  let at = 0;
  for (const line of expected) {
    const found = stdout.indexOf(`${line}\n`, at);
    assert.ok(found >= 0, `missing, or out of order: ${line}\n${stdout}`);
    at = found;
  }
  assert.match(stdout, /^ {22}in effect \S+ to before \S+ → \S+ to before \S+$/m);
  assert.match(stdout, /^ {22}source nat-1004 \(NAT 1004\) → \S+ \(.+\)$/m);
});

test('--json: the comparison for machines, figures with their differences in cents and steps with old and new', async () => {
  const { status, stdout, stderr } = await runs.get('json');
  assert.is(status, 0, stderr);
  const comparison = JSON.parse(stdout);
  assert.equal(Object.keys(comparison), ['calculatorId', 'old', 'new', 'figures', 'steps', 'unchangedSteps']);
  assert.equal([comparison.old.context.taxYear, comparison.new.context.taxYear], [defaultYear, otherYear]);
  const newWithheld = otherExample('teacher', 'au.pay.take-home')!.expect.paygWithholding as number;
  const total = comparison.figures.find((figure: any) => figure.figure === 'total');
  assert.equal([total.old.cents, total.new.cents, total.differenceCents, total.changed], [teacher.withheldCents, newWithheld, newWithheld - teacher.withheldCents, true]);
  const payg = comparison.steps.find((step: any) => step.ruleId === 'payg-withholding');
  const scale = payg.parameters.find((parameter: any) => parameter.name === 'withholding-scale-2');
  assert.equal([scale.old.row.a, scale.new.row.a, scale.old.source.reference], ['0.3200', '0.3000', 'NAT 1004']);
  assert.equal(payg.result, { name: 'result', old: { _tag: 'Money', cents: teacher.withheldCents, currency: 'AUD' }, new: { _tag: 'Money', cents: newWithheld, currency: 'AUD' } });
  assert.equal(comparison.unchangedSteps, ['taxable-pay']);
});

test('every pay journey (in-process): old figures as published, new as worked by hand, difference new − old', () => {
  const oldPlan = catalog.find('au.pay.take-home', { taxYear: defaultYear })!;
  const newPlan = catalog.find('au.pay.take-home', { taxYear: otherYear })!;
  let compared = 0;
  for (const journey of JOURNEYS.pay) {
    const worked = otherExample(journey.name, 'au.pay.take-home');
    if (!worked) continue;
    const result = compareRuns(oldPlan, newPlan, payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed));
    assert.ok(result.ok, journey.name);
    const figures = new Map((result as Extract<typeof result, { ok: true }>).comparison.figures.map((figure) => [figure.figure, figure]));
    const net = figures.get('netPay')!;
    assert.equal([(net.old as any).cents, (net.new as any).cents, net.differenceCents], [journey.netCents, worked.expect.netPay, (worked.expect.netPay as number) - journey.netCents], journey.name);
    assert.equal((figures.get('withholdingsTotal')!.old as any).cents, journey.withheldCents, journey.name);
    compared++;
  }
  assert.ok(compared >= 5, `${compared} journeys compared`);
});

test('no tax year named: the serving default; a context not available: the nearest tax year is suggested', async () => {
  const { status, stdout } = await runs.get('defaultYear');
  assert.is(status, 0);
  assert.ok(stdout.startsWith(`Take-home pay (au.pay.take-home), AU ${defaultYear}, `), stdout);
  const years = [...new Set(catalog.withId('au.pay.take-home').map((plan) => plan.context.taxYear))].sort() as [string, ...string[]];
  const start = (year: string) => Number(year.slice(0, 4));
  const yearAfter = (year: string, offset: number) => `${start(year) + offset}-${String((start(year) + offset + 1) % 100).padStart(2, '0')}`;
  const suggestion = (context: string) => {
    const selected = selectPlan(catalog, 'au.pay.take-home', context, defaultYear);
    assert.is(selected.ok, false, context);
    return (selected as { problems: string[] }).problems[0];
  };
  assert.match(suggestion(`AU/${yearAfter(years.at(-1)!, 1)}`)!, `did you mean AU/${years.at(-1)}?`);
  assert.match(suggestion(`AU/${yearAfter(years[0], -7)}`)!, `did you mean AU/${years[0]}?`);
  const selected = selectPlan(catalog, 'au.pay.take-home', 'AU', defaultYear);
  assert.ok(selected.ok && selected.plan.context.taxYear === defaultYear);
});

test('--against a context the calculator lacks: a usage error naming it, exit 2', async () => {
  const { status, stderr } = await runs.get('unknownAgainst');
  if (catalog.find('au.income-tax.annual', { taxYear: otherYear })) return;
  assert.is(status, 2);
  assert.match(stderr, `explain: --against: \`au.income-tax.annual\` is not available for AU/${otherYear}; did you mean AU/`);
});

test.run();
