import type { CalculatorPlan } from '../../engine/index.ts';
import type { AnnualFacts, PayFacts } from './direct.ts';
import { prepareDirectAnnual } from './direct.ts';
import { stepProviding, tableOf } from './plan-values.ts';
import { seededRandom } from '../../test/helpers/seeded-random.ts';



const PERIODS = ['weekly', 'fortnightly', 'monthly'] as const;

/** Intervals [low, high) between consecutive bounds (in cents), with an open top stretched by half. */
function segments(bounds: readonly number[]): [number, number][] {
  const sorted = [...new Set(bounds)].sort((a, b) => a - b);
  const out: [number, number][] = [];
  let low = 0;
  for (const bound of sorted) {
    if (bound > low) out.push([low, bound]);
    low = Math.max(low, bound);
  }
  out.push([low, Math.max(low * 1.5, low + 100_000)]);
  return out;
}

function money(cents: number) {
  return { _tag: 'Money' as const, cents, currency: 'AUD' };
}

/**
 * Take-home inputs spread over every period, both scales and every row of each scale: a row's
 * interval of weekly earnings is picked at random, then an amount inside it, then turned into the
 * gross pay of a random period (monthly amounts sometimes end in 33 cents, which NAT 1004 adjusts).
 */
export function takeHomeInputs(plan: CalculatorPlan, count: number, seed = 1): PayFacts[] {
  const step = stepProviding(plan, 'paygWithholding');
  const scales = [tableOf(step, 'withholding-scale-1'), tableOf(step, 'withholding-scale-2')].map((table) =>
    segments(table.rows.flatMap((row) => (row.bound ? [row.bound.toNumber()] : []))),
  );
  const random = seededRandom(seed);
  const inputs: PayFacts[] = [];
  for (let index = 0; index < count; index++) {
    const claimed = random() < 0.5;
    const ranges = scales[claimed ? 1 : 0]!;
    const [low, high] = ranges[Math.floor(random() * ranges.length)]!;
    const weekly = Math.floor(low + random() * (high - low));
    const period = PERIODS[index % PERIODS.length]!;
    let cents = period === 'weekly' ? weekly : period === 'fortnightly' ? weekly * 2 + Math.floor(random() * 2) : Math.round((weekly * 13) / 3);
    if (period === 'monthly' && random() < 0.125) cents = cents - (cents % 100) + 33;
    inputs.push({ grossPay: { _tag: 'GrossPay', amount: money(Math.max(0, cents)), period }, taxFreeThresholdClaimed: claimed });
  }
  return inputs;
}

/**
 * Annual inputs spread over every interval between the bounds of the rate table, the offset table
 * and the Medicare thresholds: an interval is picked at random, then an amount of cents inside it.
 */
export function annualInputs(plan: CalculatorPlan, count: number, seed = 2): AnnualFacts[] {
  const ranges = segments(prepareDirectAnnual(plan).bounds.map((bound) => bound.toNumber()));
  const random = seededRandom(seed);
  const inputs: AnnualFacts[] = [];
  for (let index = 0; index < count; index++) {
    const [low, high] = ranges[Math.floor(random() * ranges.length)]!;
    inputs.push({ taxableIncome: money(Math.floor(low + random() * (high - low))) });
  }
  return inputs;
}

/**
 * A pay run's worth of calculations, in turn over the calculators given: pay calculators on varied
 * pay, the annual calculator on varied income (every third item).
 */
export function mixedPayRunWork(pay: readonly CalculatorPlan[], annual: CalculatorPlan, count: number): { calculatorId: string; facts: unknown }[] {
  const payInputs = takeHomeInputs(pay[0]!, count, 11);
  const incomes = annualInputs(annual, count, 12);
  return Array.from({ length: count }, (_, index) =>
    index % 3 === 2 ? { calculatorId: annual.def.id, facts: incomes[index]! } : { calculatorId: pay[index % pay.length]!.def.id, facts: payInputs[index]! },
  );
}
