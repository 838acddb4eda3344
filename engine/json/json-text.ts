/**
 * JSON text in ASCII: every character past U+007F written as a `\uXXXX` escape, which parses to the
 * same value. A report is written from such text, so its bytes need no encoding (`json-bytes.ts`).
 */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeCharacter) : json;
}

const NON_ASCII = /[^\x00-\x7f]/;
const NON_ASCII_ALL = /[^\x00-\x7f]/g;
const escapeCharacter = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
