import { compareDecimals, Decimal, type Decimal as DecimalValue } from '../money/decimal.ts';
import type { FactShape } from '../model/pack.ts';
import type { StaticType } from '../expressions/compile.ts';
import type { RecordValue, Value } from '../expressions/values.ts';
import type { JsonSchema } from './schema-type.ts';

/** The largest number of cents JSON can carry exactly. */
export const MAX_CENTS = Number.MAX_SAFE_INTEGER;
const MAX_CENTS_DECIMAL = new Decimal(MAX_CENTS);
const MIN_CENTS_DECIMAL = MAX_CENTS_DECIMAL.neg();

/** True when an amount of cents is too large to be given exactly in JSON. */
export function beyondExactCents(cents: DecimalValue): boolean {
  return compareDecimals(cents, MAX_CENTS_DECIMAL) > 0 || compareDecimals(cents, MIN_CENTS_DECIMAL) < 0;
}

/**
 * A whole number of cents as a JS number. Reads decimal.js's documented digit words (`d`, base 1e7,
 * most significant first), exponent (`e`) and sign (`s`) directly: far cheaper than toNumber, which
 * goes through a string, and a report converts many amounts. Long or odd values take the slow road.
 */
export function centsNumber(cents: DecimalValue): number {
  const words = cents.d;
  if (words && words.length <= 2) {
    let digits = words[0]!;
    let count = digitCount(digits);
    if (words.length === 2) {
      digits = digits * 1e7 + words[1]!;
      count += 7;
    }
    const shift = cents.e + 1 - count;
    if (shift >= 0 && shift <= 15) {
      const value = digits * POWERS_OF_TEN[shift]!;
      if (Number.isSafeInteger(value)) return cents.s < 0 ? -value : value;
    }
  }
  return cents.toNumber();
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, power) => 10 ** power);

function digitCount(word: number): number {
  let count = 1;
  while (count < 7 && word >= POWERS_OF_TEN[count]!) count++;
  return count;
}


/** What the expression checker knows about a fact of this shape. */
export function staticTypeOf(shape: FactShape): StaticType {
  switch (shape.type) {
    case 'money':
    case 'ratio':
    case 'count':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'selection':
      return { kind: 'string', options: shape.options };
    case 'date':
      return { kind: 'string' };
    case 'record':
      return { kind: 'record', fields: Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, staticTypeOf(field)])) };
  }
}

/**
 * The JSON Schema of a fact's JSON form. `x-expected` says in words what a value must be; decode
 * errors quote it, so that a message says what was expected without repeating what was sent.
 */
export function jsonSchemaOf(shape: FactShape, currency: string): JsonSchema {
  switch (shape.type) {
    case 'money':
      return {
        type: 'object',
        description: `An amount of money in integer cents (${currency}).`,
        'x-expected': `a Money object: {"_tag": "Money", "cents": <integer>, "currency": "${currency}"}`,
        required: ['_tag', 'cents', 'currency'],
        additionalProperties: false,
        properties: {
          _tag: { const: 'Money', 'x-expected': '"Money"' },
          cents: {
            type: 'integer',
            minimum: 0,
            maximum: MAX_CENTS,
            description: 'Whole cents, zero or more.',
            'x-expected': `an integer number of cents from 0 to ${MAX_CENTS}`,
          },
          currency: { const: currency, 'x-expected': `"${currency}"` },
        },
      };
    case 'boolean':
      return { type: 'boolean', 'x-expected': 'true or false' };
    case 'ratio':
      return { type: 'number', 'x-expected': 'a number' };
    case 'count':
      return { type: 'integer', minimum: 0, maximum: MAX_CENTS, 'x-expected': 'a whole number, zero or more' };
    case 'selection':
      return { type: 'string', enum: shape.options, 'x-expected': `one of ${shape.options.map((option) => `"${option}"`).join(', ')}` };
    case 'date':
      return { type: 'string', format: 'date', 'x-expected': 'a calendar date written YYYY-MM-DD (year, month, day)' };
    case 'record': {
      const names = Object.keys(shape.fields);
      return {
        type: 'object',
        'x-expected': `a ${shape.tag} object with fields _tag, ${names.join(', ')}`,
        required: ['_tag', ...names],
        additionalProperties: false,
        properties: {
          _tag: { const: shape.tag, 'x-expected': `"${shape.tag}"` },
          ...Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, jsonSchemaOf(field, currency)])),
        },
      };
    }
  }
}

/** Turns a JSON value already checked against the shape's schema into the engine's value. */
export function decoderOf(shape: FactShape): (json: unknown) => Value {
  switch (shape.type) {
    case 'money':
      return (json) => new Decimal((json as { cents: number }).cents);
    case 'ratio':
    case 'count':
      return (json) => new Decimal(json as number);
    case 'boolean':
    case 'selection':
    case 'date':
      return (json) => json as Value;
    case 'record': {
      const fields = Object.entries(shape.fields).map(([name, field]) => [name, decoderOf(field)] as const);
      return (json) => {
        const record: Record<string, Value> = Object.create(null);
        for (const [name, decode] of fields) record[name] = decode((json as Record<string, unknown>)[name]);
        return record as RecordValue;
      };
    }
  }
}


/** A short description of the JSON a fact accepts, for help texts. */
export function describeShape(shape: FactShape, currency: string): string {
  return String(jsonSchemaOf(shape, currency)['x-expected']);
}
