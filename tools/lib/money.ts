/** `35300 ($353.00)` for a whole number of cents; anything else as its JSON, so odd values stay visible. */
export function formatFigure(value: unknown, isMoney: boolean): string {
  if (isMoney && typeof value === 'number' && Number.isSafeInteger(value)) return `${value} (${dollars(value)})`;
  return JSON.stringify(value) ?? String(value);
}

/** `$1,301.00` from 130100; integer arithmetic only, so no float ever rounds a cent away. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const whole = String(Math.floor(absolute / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}$${whole}.${String(absolute % 100).padStart(2, '0')}`;
}

/** `+2500 (+$25.00)` or `-2500 (-$25.00)`: a change in cents, signed so that a reviewer sees its direction. */
export function signedCents(delta: number): string {
  const sign = delta > 0 ? '+' : '';
  return `${sign}${delta} (${sign}${dollars(delta)})`;
}

/**
 * `$7.7550` from the exact decimal text `7.7550` (an amount in dollars): at least two decimals, every
 * written digit kept, thousands grouped. Text that is not a plain decimal is returned unchanged.
 */
export function dollarsOfText(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return text;
  const [, sign, whole, fraction = ''] = match;
  const grouped = whole!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}$${grouped}.${fraction.padEnd(2, '0')}`;
}

/** `$352.97123` from the exact decimal text `35297.123` (an amount in cents), by moving the point, not by dividing floats. */
export function dollarsOfCentsText(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return text;
  const [, sign, whole, fraction = ''] = match;
  const padded = whole!.padStart(3, '0');
  const digits = `${padded.slice(0, -2)}.${padded.slice(-2)}${fraction}`.replace(/0+$/, '').replace(/\.$/, '');
  return dollarsOfText(`${sign}${digits}`);
}
