import type { Decimal } from '../money/decimal.ts';

/**
 * JSON text in ASCII: every character past U+007F written as a `\uXXXX` escape, which parses to the
 * same value. Reports are then one-byte strings, which V8 joins and encodes to bytes several times
 * faster than the two-byte strings a single `×` or `−` in a formula would make of the whole report.
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeCharacter) : json;
}

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;
const escapeCharacter = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A decimal as a JSON string. Its text is digits, a sign, a point and an exponent, none of which
 * JSON escapes, so it is quoted as it is: reports write many, and `jsonText` on each was about a
 * twentieth of a traced calculation.
 */
export function decimalText(value: Decimal): string {
  return `"${value.toString()}"`;
}
