import { Decimal } from './decimal.ts';

const ONE_HUNDREDTH = new Decimal('0.01');

/** What a rounding mode rounds to, and how. Amounts are in cents. */
export interface RoundingMode {
  name: string;
  to: 'cent' | 'dollar' | 'none';
  method: 'half-up' | 'floor' | 'ceil';
}

/** The generic modes every pack may name; packs declare their own named modes on top of these. */
export const BUILT_IN_ROUNDING_MODES: readonly RoundingMode[] = [
  { name: 'none', to: 'none', method: 'half-up' },
  { name: 'round-to-nearest-cent', to: 'cent', method: 'half-up' },
  { name: 'floor-cent', to: 'cent', method: 'floor' },
  { name: 'ceil-cent', to: 'cent', method: 'ceil' },
  { name: 'floor-dollar', to: 'dollar', method: 'floor' },
  { name: 'ceil-dollar', to: 'dollar', method: 'ceil' },
];

const DECIMAL_ROUNDING = {
  'half-up': Decimal.ROUND_HALF_UP,
  floor: Decimal.ROUND_FLOOR,
  ceil: Decimal.ROUND_CEIL,
} as const;

/** Returns a function that applies the mode to an amount in cents, exactly and once. */
export function roundingFunction(mode: RoundingMode): (cents: Decimal) => Decimal {
  if (mode.to === 'none') return (cents) => cents;
  const rounding = DECIMAL_ROUNDING[mode.method];
  if (mode.to === 'cent') return (cents) => cents.toDecimalPlaces(0, rounding);
  // Multiplying by 0.01 is exact and much cheaper than dividing by 100.
  return (cents) => cents.mul(ONE_HUNDREDTH).toDecimalPlaces(0, rounding).mul(100);
}
