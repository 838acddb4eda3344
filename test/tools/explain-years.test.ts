import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readServingDefaults } from '../../engine/index.ts';
import { compareRuns, type FigureChange } from '../../tools/explain/comparison.ts';
import { CONFORMANCE_YEARS, journeysOf, type AnnualJourney, type PayJourney } from '../helpers/conformance.ts';
import { money, payFacts, SHIPPED_PACKS, shippedPacks } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// explain --against on the shipped packs, year against year, with every expected figure from the
// shared conformance journeys of each year (copied into test/fixtures/conformance; years.json says
// which file holds which year). The years come from that file and the serving file: a new year's
// packs and journeys need no edit here.
const YEARS = CONFORMANCE_YEARS;


const { catalog } = shippedPacks();
const years = Object.keys(YEARS).sort();
const defaultYear = readServingDefaults([SHIPPED_PACKS]).defaults!.defaultTaxYear;
const nextYear = years.find((year) => year > defaultYear);

/** What each calculator's report says of a journey, figure by figure, in cents. */
const CALCULATORS = {
  'au.pay.take-home': { journeys: 'pay', facts: (j: PayJourney) => payFacts(j.grossCents, j.period, j.taxFreeThresholdClaimed), figures: (j: PayJourney) => ({ withholdingsTotal: j.withheldCents, netPay: j.netCents }) },
  'au.pay.withholdings': { journeys: 'pay', facts: (j: PayJourney) => payFacts(j.grossCents, j.period, j.taxFreeThresholdClaimed), figures: (j: PayJourney) => ({ total: j.withheldCents }) },
  'au.income-tax.annual': {
    journeys: 'annual',
    facts: (j: AnnualJourney) => ({ taxableIncome: money(j.taxableIncomeCents) }),
    figures: (j: AnnualJourney) => ({
      'ledger.components.income-tax': j.incomeTax,
      'ledger.components.low-income-tax-offset': j.lito,
      'ledger.components.medicare-levy': j.medicare,
      rawLiability: j.rawLiability,
      liability: j.liability,
    }),
  },
} as const;
type CalculatorId = keyof typeof CALCULATORS;

/** Journeys of one calculator that both years' files have, paired by name. */
function pairs(calculatorId: CalculatorId, oldYear: string, newYear: string): [any, any][] {
  const kind = CALCULATORS[calculatorId].journeys;
  const newer = new Map((journeysOf(newYear)[kind] as { name: string }[]).map((journey) => [journey.name, journey]));
  return (journeysOf(oldYear)[kind] as { name: string }[]).filter((journey) => newer.has(journey.name)).map((journey) => [journey, newer.get(journey.name)!]);
}

/** Every expected figure, old and new, and the difference new − old, as the comparison must give them. */
function expectFigures(figures: FigureChange[], calculatorId: CalculatorId, old: any, now: any, label: string): void {
  const byPath = new Map(figures.map((figure) => [figure.figure, figure]));
  const expectedOld = CALCULATORS[calculatorId].figures(old) as Record<string, number>;
  const expectedNew = CALCULATORS[calculatorId].figures(now) as Record<string, number>;
  for (const [path, cents] of Object.entries(expectedOld)) {
    const figure = byPath.get(path);
    assert.ok(figure, `${label}: no figure ${path}`);
    assert.equal(
      [(figure!.old as { cents: number }).cents, (figure!.new as { cents: number }).cents, figure!.differenceCents],
      [cents, expectedNew[path], expectedNew[path]! - cents],
      `${label}: ${path}`,
    );
  }
}

const spawned = Object.fromEntries(
  (Object.keys(CALCULATORS) as CalculatorId[]).map((calculatorId) => [
    calculatorId,
    () => {
      const [old] = pairs(calculatorId, defaultYear, nextYear!).find(([journey]) => journey.name === 'teacher')!;
      return cli('explain', [calculatorId, '--facts', JSON.stringify(CALCULATORS[calculatorId].facts(old)), '--context', `AU/${nextYear}`, '--against', `AU/${defaultYear}`, '--json']);
    },
  ]),
) as Record<CalculatorId, () => ReturnType<typeof cli>>;
const runs = suiteRuns(spawned);
test.before(runs.start);

test('the shipped packs serve a year after the default one, with its journeys', () => {
  assert.ok(nextYear, `years with journeys: ${years.join(', ')}; default ${defaultYear}`);
  for (const year of years) assert.ok(catalog.find('au.pay.take-home', { taxYear: year }), year);
});

for (const calculatorId of Object.keys(CALCULATORS) as CalculatorId[]) {
  test(`${calculatorId}, spawned: the next year against the default one, the teacher's figures as published for both`, async () => {
    const { status, stdout, stderr } = await runs.get(calculatorId);
    assert.is(status, 0, stderr);
    const comparison = JSON.parse(stdout);
    assert.equal([comparison.old.context.taxYear, comparison.new.context.taxYear], [defaultYear, nextYear]);
    const [old, now] = pairs(calculatorId, defaultYear, nextYear!).find(([journey]) => journey.name === 'teacher')!;
    expectFigures(comparison.figures, calculatorId, old, now, 'teacher');
    // Every figure that moved comes from a step that differs, and the parameters read there say why.
    if (comparison.figures.some((figure: FigureChange) => figure.differenceCents)) {
      const changedParameters = comparison.steps.flatMap((step: any) => step.parameters);
      assert.ok(changedParameters.length > 0, 'a parameter value that changed');
      for (const parameter of changedParameters) {
        for (const side of [parameter.old, parameter.new].filter(Boolean)) assert.ok(side.source.reference && side.effectivePeriod.from, `${parameter.name}: period and source`);
      }
    }
  });
}

test('every journey, each year against the one before (in-process): old and new figures as published, difference new − old', () => {
  let compared = 0;
  for (let index = 1; index < years.length; index++) {
    const [oldYear, newYear] = [years[index - 1]!, years[index]!];
    for (const calculatorId of Object.keys(CALCULATORS) as CalculatorId[]) {
      const oldPlan = catalog.find(calculatorId, { taxYear: oldYear })!;
      const newPlan = catalog.find(calculatorId, { taxYear: newYear })!;
      const paired = pairs(calculatorId, oldYear, newYear);
      assert.ok(paired.length >= 5, `${calculatorId} ${oldYear} → ${newYear}: ${paired.length} journeys in both years`);
      for (const [old, now] of paired) {
        const facts = CALCULATORS[calculatorId].facts(old);
        assert.equal(CALCULATORS[calculatorId].facts(now), facts, `${old.name}: the same facts in both years`);
        const result = compareRuns(oldPlan, newPlan, facts);
        assert.ok(result.ok, `${calculatorId} ${old.name}`);
        if (result.ok) expectFigures(result.comparison.figures, calculatorId, old, now, `${calculatorId} ${oldYear} → ${newYear}: ${old.name}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 0);
});

test.run();
