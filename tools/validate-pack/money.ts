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
