import type { CalculatorPlan } from '../../engine/index.ts';
import { Decimal } from '../../engine/index.ts';
import { cell, scalarOf, stepProviding, tableOf, type ResolvedRow } from './plan-values.ts';

/**
 * Hand-written computations of the same arithmetic the packs describe, with the engine's own
 * Decimal (40 significant digits, half-up), reading every rate, threshold and coefficient from the
 * loaded plan. No traces, no validation, no closures per operator: the baseline the engine is
 * measured against. The structure of each formula (the NAT 1004 weekly-equivalent steps, the order
 * of roundings) is written here by hand, because that is what "direct" means.
 */

export interface PayFacts {
  grossPay: { _tag: 'GrossPay'; amount: { _tag: 'Money'; cents: number; currency: string }; period: string };
  taxFreeThresholdClaimed: boolean;
}
export interface AnnualFacts {
  taxableIncome: { _tag: 'Money'; cents: number; currency: string };
}

export interface TakeHomeFigures {
  taxablePay: number;
  paygWithholding: number;
  withholdingsTotal: number;
  netPay: number;
}
export interface AnnualFigures {
  incomeTax: number;
  lowIncomeTaxOffset: number;
  medicareLevy: number;
  rawLiability: number;
  liability: number;
}

const ZERO = new Decimal(0);
const HALF_UP = Decimal.ROUND_HALF_UP;
const FLOOR = Decimal.ROUND_FLOOR;

const roundCent = (cents: Decimal) => cents.toDecimalPlaces(0, HALF_UP);
const roundDollar = (cents: Decimal) => cents.div(100).toDecimalPlaces(0, HALF_UP).mul(100);
const floorDollar = (cents: Decimal) => cents.div(100).toDecimalPlaces(0, FLOOR).mul(100);
const atLeastZero = (amount: Decimal) => (amount.isNegative() ? ZERO : amount);

interface ScaleRow {
  index: number;
  below: Decimal | null;
  a: Decimal;
  b: Decimal;
}

function scaleRows(rows: readonly ResolvedRow[]): ScaleRow[] {
  return rows.map((row) => ({ index: row.index, below: row.bound, a: cell(row, 'a'), b: cell(row, 'b') }));
}

function scaleRow(rows: readonly ScaleRow[], x: Decimal): ScaleRow {
  for (const row of rows) if (row.below === null || x.lt(row.below)) return row;
  throw new Error('no withholding row applies');
}

/** The weekly earnings x of NAT 1004: the weekly equivalent in whole dollars, plus 99 cents. */
function weeklyEarnings(taxable: Decimal, period: string): Decimal {
  let weekly: Decimal;
  if (period === 'weekly') weekly = taxable;
  else if (period === 'fortnightly') weekly = taxable.div(2);
  else weekly = taxable.add(taxable.mod(100).eq(33) ? 1 : 0).mul(3).div(13);
  return floorDollar(weekly).add(99);
}

export interface DirectTakeHome {
  compute(facts: PayFacts): TakeHomeFigures;
  /** Which scale and row an input falls in, for coverage checks. */
  classify(facts: PayFacts): { period: string; scale: 1 | 2; row: number };
  rowCounts: { scale1: number; scale2: number };
}

export function prepareDirectTakeHome(plan: CalculatorPlan): DirectTakeHome {
  const step = stepProviding(plan, 'paygWithholding');
  const scale1Table = tableOf(step, 'withholding-scale-1');
  const scale2Table = tableOf(step, 'withholding-scale-2');
  if (scale1Table.bound !== 'below' || scale2Table.bound !== 'below') throw new Error('withholding scales are expected to be `below` tables');
  const scale1 = scaleRows(scale1Table.rows);
  const scale2 = scaleRows(scale2Table.rows);

  const compute = (facts: PayFacts): TakeHomeFigures => {
    const gross = new Decimal(facts.grossPay.amount.cents);
    const period = facts.grossPay.period;
    const taxable = gross;
    const x = weeklyEarnings(taxable, period);
    const row = scaleRow(facts.taxFreeThresholdClaimed ? scale2 : scale1, x);
    const weeklyWithholding = roundDollar(atLeastZero(row.a.mul(x).sub(row.b)));
    const scaled = period === 'weekly' ? weeklyWithholding : period === 'fortnightly' ? weeklyWithholding.mul(2) : weeklyWithholding.mul(13).div(3);
    const withholding = roundDollar(scaled);
    const withheld = withholding.toNumber();
    return { taxablePay: taxable.toNumber(), paygWithholding: withheld, withholdingsTotal: withheld, netPay: gross.sub(withholding).toNumber() };
  };
  const classify = (facts: PayFacts) => {
    const x = weeklyEarnings(new Decimal(facts.grossPay.amount.cents), facts.grossPay.period);
    const claimed = facts.taxFreeThresholdClaimed;
    return { period: facts.grossPay.period, scale: claimed ? (2 as const) : (1 as const), row: scaleRow(claimed ? scale2 : scale1, x).index };
  };
  return { compute, classify, rowCounts: { scale1: scale1.length, scale2: scale2.length } };
}

interface RateRow {
  index: number;
  from: Decimal;
  rate: Decimal;
  /** Tax on everything below `from`, worked out here from the rates (not taken from the engine). */
  below: Decimal;
}
interface OffsetRow {
  index: number;
  upTo: Decimal | null;
  base: Decimal;
  rate: Decimal;
  over: Decimal;
}

export interface DirectAnnual {
  compute(facts: AnnualFacts): AnnualFigures;
  classify(facts: AnnualFacts): { taxRow: number; offsetRow: number; medicare: 'nil' | 'shade-in' | 'full' };
  rowCounts: { tax: number; offset: number };
  /** Every bound of every table and threshold, in cents, ascending: where the arithmetic changes. */
  bounds: Decimal[];
}

export function prepareDirectAnnual(plan: CalculatorPlan): DirectAnnual {
  const taxTable = tableOf(stepProviding(plan, 'incomeTax'), 'resident-tax-rates');
  const offsetTable = tableOf(stepProviding(plan, 'lowIncomeTaxOffset'), 'low-income-tax-offset-amounts');
  if (taxTable.bound !== 'from' || offsetTable.bound !== 'upTo') throw new Error('unexpected table kinds in the annual pack');
  const medicare = stepProviding(plan, 'medicareLevy');
  const levyRate = scalarOf(medicare, 'medicare-levy-rate');
  const shadeInRate = scalarOf(medicare, 'medicare-levy-shade-in-rate');
  const threshold = scalarOf(medicare, 'medicare-levy-threshold');
  const phaseInLimit = scalarOf(medicare, 'medicare-levy-phase-in-limit');

  const rates: RateRow[] = [];
  for (const row of taxTable.rows) {
    const previous = rates[rates.length - 1];
    const from = row.bound!;
    const below = previous ? previous.below.add(previous.rate.mul(from.sub(previous.from))) : ZERO;
    rates.push({ index: row.index, from, rate: cell(row, 'rate'), below });
  }
  const offsets: OffsetRow[] = offsetTable.rows.map((row) => ({ index: row.index, upTo: row.bound, base: cell(row, 'base'), rate: cell(row, 'rate'), over: cell(row, 'over') }));

  const rateRow = (income: Decimal): RateRow => {
    for (let index = rates.length - 1; index >= 0; index--) if (income.gte(rates[index]!.from)) return rates[index]!;
    throw new Error('income below the first rate row');
  };
  const offsetRow = (income: Decimal): OffsetRow => {
    for (const row of offsets) if (row.upTo === null || income.lte(row.upTo)) return row;
    throw new Error('no offset row applies');
  };

  const compute = (facts: AnnualFacts): AnnualFigures => {
    const income = new Decimal(facts.taxableIncome.cents);
    const band = rateRow(income);
    const incomeTax = roundCent(band.below.add(band.rate.mul(income.sub(band.from))));
    const offset = offsetRow(income);
    const taper = roundCent(offset.rate.mul(atLeastZero(income.sub(offset.over))));
    const lowIncomeTaxOffset = roundCent(atLeastZero(offset.base.sub(taper)));
    let levy: Decimal;
    if (income.lte(threshold)) levy = ZERO;
    else if (income.lte(phaseInLimit)) levy = Decimal.min(levyRate.mul(income), shadeInRate.mul(income.sub(threshold)));
    else levy = levyRate.mul(income);
    const medicareLevy = roundCent(levy);
    const rawLiability = incomeTax.sub(lowIncomeTaxOffset).add(medicareLevy);
    return {
      incomeTax: incomeTax.toNumber(),
      lowIncomeTaxOffset: lowIncomeTaxOffset.toNumber(),
      medicareLevy: medicareLevy.toNumber(),
      rawLiability: rawLiability.toNumber(),
      liability: atLeastZero(rawLiability).toNumber(),
    };
  };
  const classify = (facts: AnnualFacts) => {
    const income = new Decimal(facts.taxableIncome.cents);
    const medicareZone = income.lte(threshold) ? ('nil' as const) : income.lte(phaseInLimit) ? ('shade-in' as const) : ('full' as const);
    return { taxRow: rateRow(income).index, offsetRow: offsetRow(income).index, medicare: medicareZone };
  };
  const bounds = [...rates.map((row) => row.from), ...offsets.flatMap((row) => (row.upTo ? [row.upTo] : [])), threshold, phaseInLimit].sort((a, b) => a.comparedTo(b));
  return { compute, classify, rowCounts: { tax: rates.length, offset: offsets.length }, bounds };
}
