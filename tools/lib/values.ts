import { dollars } from './money.ts';

/** True for the API's Money object. */
export function isMoney(value: unknown): value is { _tag: 'Money'; cents: number; currency: string } {
  return typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'Money' && typeof (value as { cents?: unknown }).cents === 'number';
}

/**
 * A fact value as a reader wants it: Money as dollars and cents, a record as its fields, text bare.
 * `$` stands for the pack's currency; any other currency is named after the amount.
 */
export function renderValue(value: unknown): string {
  if (isMoney(value)) return `${dollars(value.cents)}${value.currency === 'AUD' ? '' : ` ${value.currency}`}`;
  if (Array.isArray(value)) return `[${value.map(renderValue).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).filter(([key]) => key !== '_tag');
    return `{ ${fields.map(([key, field]) => `${key}: ${renderValue(field)}`).join(', ')} }`;
  }
  return typeof value === 'string' ? value : String(value);
}
