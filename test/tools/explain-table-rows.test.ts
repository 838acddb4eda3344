import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCatalog, loadPacks, readServingDefaults, runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import { compareRuns, type Comparison } from '../../tools/explain/comparison.ts';
import { comparisonText } from '../../tools/explain/comparison-text.ts';
import { money, SHIPPED_PACKS, shippedPacks } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// explain --against shows only the table row a step matched. A marginal-rate table's row can read
// "the same cells" while the amount due below it moves, because an earlier row's rate changed (the
// 2026-27 first rate, 16 % → 15 %, per the shared 2026-27 tax facts): the comparison must say so and
// name the pack-diff command that shows every row, and must say when no other row changed.
const conformance = (file: string) => JSON.parse(readFileSync(new URL(`../fixtures/conformance/${file}`, import.meta.url), 'utf8'));
const years = conformance('years.json').years as Record<string, { journeys: string }>;
const defaultYear = readServingDefaults([SHIPPED_PACKS]).defaults!.defaultTaxYear;
const nextYear = Object.keys(years).sort().find((year) => year > defaultYear);
const { catalog } = shippedPacks();
// The highest published annual journey: its income is in a row above the one whose rate changed.
const journey = (conformance(years[defaultYear]!.journeys).annual as { taxableIncomeCents: number }[]).reduce((high, candidate) => (candidate.taxableIncomeCents > high.taxableIncomeCents ? candidate : high));
const facts = { taxableIncome: money(journey.taxableIncomeCents) };

function compared(oldPlan: CalculatorPlan, newPlan: CalculatorPlan): Comparison {
  const result = compareRuns(oldPlan, newPlan, facts);
  if (!result.ok) throw new Error(result.failure);
  return result.comparison;
}
const ratesOf = (comparison: Comparison) => comparison.steps.find((step) => step.ruleId === 'income-tax')?.parameters.find((parameter) => parameter.name === 'resident-tax-rates');

const runs = suiteRuns({
  text: () => cli('explain', ['au.income-tax.annual', '--facts', JSON.stringify(facts), '--context', `AU/${nextYear}`, '--against', `AU/${defaultYear}`]),
});
test.before(runs.start);

test('a rate changed in an earlier row: the matched row is the same, and the comparison says other rows changed', () => {
  if (!nextYear) return;
  const rates = ratesOf(compared(catalog.find('au.income-tax.annual', { taxYear: defaultYear })!, catalog.find('au.income-tax.annual', { taxYear: nextYear })!));
  assert.ok(rates, 'the resident rates differ between the years');
  assert.is(rates!.old!.matchedRow, rates!.new!.matchedRow);
  assert.equal(rates!.old!.row, rates!.new!.row);
  assert.is.not(rates!.old!.amountBelowRow, rates!.new!.amountBelowRow);
  assert.is(rates!.otherRows, 'changed');
});

test('the text names the pack-diff command with both packs\' folders, as explain was run', async () => {
  if (!nextYear) return;
  const { status, stdout, stderr } = await runs.get('text');
  assert.is(status, 0, stderr);
  const folder = (year: string) => `rulepacks/${catalog.find('au.income-tax.annual', { taxYear: year })!.rulePackVersion}`;
  assert.match(stdout, `\n                      other rows of the table changed too; every row, old → new: npx pack-diff ${folder(defaultYear)} ${folder(nextYear)}\n`);
});

test('only the matched row changed: the comparison says no other row did', () => {
  // A copy of the default year's pack with the matched row's rate raised by one point, loaded on its own.
  const root = mkdtempSync(join(tmpdir(), 'explain-table-rows-'));
  try {
    const plan = catalog.find('au.income-tax.annual', { taxYear: defaultYear })!;
    const copy = join(root, plan.pack.id, plan.pack.version);
    cpSync(plan.pack.dir, copy, { recursive: true });
    const before = compared(plan, plan);
    assert.equal(before.steps, [], 'the same pack twice: nothing differs');
    const file = join(copy, 'parameters', 'resident-tax-rates.yaml');
    const matched = ratesOfRead(plan);
    const text = readFileSync(file, 'utf8');
    const raised = text.replace(`{ from: ${matched.from}, rate: "${matched.rate}" }`, `{ from: ${matched.from}, rate: "${(Number(matched.rate) + 0.01).toFixed(2)}" }`);
    assert.is.not(raised, text, 'the matched row was found in the file');
    writeFileSync(file, raised);
    const loaded = loadPacks([copy]);
    assert.equal(loaded.diagnostics, []);
    const changed = createCatalog(loaded.packs.flatMap((report) => report.plans)).find('au.income-tax.annual')!;
    const comparison = compared(plan, changed);
    assert.is(ratesOf(comparison)!.otherRows, 'same');
    assert.match(comparisonText(comparison, plan.def.title, { old: 'a', new: 'b' }), '\n                      no other row of the table changed\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** The row of the resident rates the journey's income falls in, as the income-tax step's trace reads it. */
function ratesOfRead(plan: CalculatorPlan): { from: number; rate: string } {
  const outcome = runCalculator(plan, facts);
  if (!outcome.ok) throw new Error('the calculation failed');
  const components = JSON.parse(outcome.json.toString()).ledger.components as { id: string; trace: { inputs: { parameters: Record<string, { row?: { from: number; rate: string } }> } } }[];
  const row = components.find((component) => component.id === 'income-tax')?.trace.inputs.parameters['resident-tax-rates']?.row;
  if (!row) throw new Error('no resident rates row read');
  return row;
}

test.run();
