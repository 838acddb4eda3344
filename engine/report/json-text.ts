import type { Decimal } from '../money/decimal.ts';

/**
 * JSON text in ASCII, held as a one-byte string: every character past U+007F written as a `\uXXXX`
 * escape, which parses to the same value. V8 joins and encodes one-byte strings to bytes several
 * times faster than two-byte ones, and one two-byte piece makes the whole report two-byte when it
 * is flattened.
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  return oneByte(NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeCharacter) : json);
}

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;
const escapeCharacter = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * The same ASCII text, held as a one-byte string. V8 keeps a string's width from where its
 * characters came from, whatever they are: a name sliced from a formula with a `−` in it is two-byte
 * though all ASCII, and so is what JSON.stringify or a replace makes of it. Text decoded as latin1
 * is always one-byte.
 */
function oneByte(ascii: string): string {
  return Buffer.from(ascii, 'latin1').toString('latin1');
}

/**
 * A decimal as a JSON string. Its text is digits, a sign, a point and an exponent, none of which
 * JSON escapes, so it is quoted as it is: reports write many, and `jsonText` on each was about a
 * twentieth of a traced calculation.
 */
export function decimalText(value: Decimal): string {
  return `"${value.toString()}"`;
}
