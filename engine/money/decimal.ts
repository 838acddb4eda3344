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

/**
 * Compares two decimals as `a.cmp(b)` does: negative, zero or positive. decimal.js copies its
 * argument into a new Decimal on every comparison (`eq`, `lt`, `gte` and the rest), and a traced
 * calculation compares often: every bracket row it tries, every rounding it checks. This reads the
 * documented representation of both instead: sign `s`, exponent `e` (of the first digit) and digit
 * words `d` (base 1e7, most significant first, no trailing zero words). NaN and infinities, which
 * calculations do not make, take decimal.js's own road.
 */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const left = a.d;
  const right = b.d;
  if (!left || !right) return a.cmp(b);
  const leftZero = left[0] === 0;
  const rightZero = right[0] === 0;
  if (leftZero || rightZero) return leftZero ? (rightZero ? 0 : -b.s) : a.s;
  if (a.s !== b.s) return a.s;
  // Same sign from here: a larger magnitude is the larger number when positive, the smaller when negative.
  if (a.e !== b.e) return a.e > b.e ? a.s : -a.s;
  const shared = Math.min(left.length, right.length);
  for (let index = 0; index < shared; index++) {
    if (left[index] !== right[index]) return left[index]! > right[index]! ? a.s : -a.s;
  }
  return left.length === right.length ? 0 : left.length > right.length ? a.s : -a.s;
}
