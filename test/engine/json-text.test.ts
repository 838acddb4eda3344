import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Decimal } from '../../engine/money/decimal.ts';
import { JsonBytes } from '../../engine/json/json-bytes.ts';
import { jsonText } from '../../engine/json/json-text.ts';
import { jsonWriterOf, writeDecimal } from '../../engine/json/value-json.ts';
import type { Value } from '../../engine/expressions/values.ts';

// The report writers' shortcuts, checked against JSON.stringify: what they write must parse to the
// same value as what it writes.

/** Decimals of every form the engine's settings print: signs, zeros, fractions, exponents. */
function decimals(): Decimal[] {
  const found = ['0', '-0', '1', '-1', '0.5', '-12.345', '1e-39', '-1e-41', '123456789012345678901234567890', '1e+40', '-9.99e+45', '0.0000001'].map((text) => new Decimal(text));
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let index = 0; index < 500; index++) found.push(new Decimal(next() - 0.5).times(new Decimal(10).pow(Math.floor(next() * 100) - 50)));
  return found;
}

/** What a writer writes of one value, as text. */
function written(write: (out: JsonBytes) => void): string {
  const out = new JsonBytes(4);
  write(out);
  return out.bytes().toString('latin1');
}

test('writeDecimal writes every decimal as JSON.stringify writes its text', () => {
  for (const value of decimals()) assert.is(written((out) => writeDecimal(out, value)), JSON.stringify(value.toString()), value.toString());
});

test('the ratio and boolean writers write what JSON.stringify writes', () => {
  const ratio = jsonWriterOf({ type: 'ratio' }, 'AUD');
  for (const value of decimals()) assert.is(written((out) => ratio(out, value)), JSON.stringify(value.toString()));
  const boolean = jsonWriterOf({ type: 'boolean' }, 'AUD');
  assert.is(written((out) => boolean(out, true as Value)), 'true');
  assert.is(written((out) => boolean(out, false as Value)), 'false');
});

test('a selection outside its options is still written as a JSON string in ASCII', () => {
  const selection = jsonWriterOf({ type: 'selection', options: ['weekly'] } as never, 'AUD');
  assert.is(written((out) => selection(out, 'weekly' as Value)), '"weekly"');
  assert.is(written((out) => selection(out, 'quarter “q”' as Value)), jsonText('quarter “q”'));
});

test('jsonText escapes every character past U+007F and parses to the same value', () => {
  const value = { title: 'Gross × rate − offset – “quoted” €', nested: ['\u2028', '\ud83d\ude00', 'plain'] };
  const text = jsonText(value);
  assert.ok(/^[\x00-\x7f]*$/.test(text), text);
  assert.equal(JSON.parse(text), value);
});

test.run();
