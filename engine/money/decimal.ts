import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The engine's own Decimal constructor: 40 significant digits, halves rounded away from zero.
 * A clone, so that no other code's Decimal settings can change our arithmetic.
 */
export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
export type Decimal = DecimalJs;

export const ZERO = new Decimal(0);
export const HUNDRED = new Decimal(100);

/**
 * True when the value is one of the engine's Decimals. Every Decimal in a calculation is made by the
 * engine's own constructor (or by arithmetic on one), so a prototype check suffices, and it is much
 * cheaper than decimal.js's own isDecimal.
 */
export function isDecimal(value: unknown): value is Decimal {
  return value instanceof Decimal;
}
