import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Decimal } from '../../engine/money/decimal.ts';
import { decimalText, jsonText } from '../../engine/report/json-text.ts';
import { jsonWriterOf } from '../../engine/report/value-json.ts';
import { stringWidth } from '../helpers/string-width.ts';

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

test('decimalText writes every decimal as JSON.stringify writes its text', () => {
  for (const value of decimals()) assert.is(decimalText(value), JSON.stringify(value.toString()), value.toString());
});

test('the ratio and boolean writers write what JSON.stringify writes', () => {
  const ratio = jsonWriterOf({ type: 'ratio' }, 'AUD');
  for (const value of decimals()) assert.is(ratio(value), JSON.stringify(value.toString()));
  const boolean = jsonWriterOf({ type: 'boolean' }, 'AUD');
  assert.is(boolean(true), 'true');
  assert.is(boolean(false), 'false');
});

test('jsonText escapes every character past U+007F and parses to the same value', () => {
  const value = { title: 'Gross × rate − offset – “quoted” €', nested: ['\u2028', '\ud83d\ude00', 'plain'] };
  const text = jsonText(value);
  assert.ok(/^[\x00-\x7f]*$/.test(text), text);
  assert.equal(JSON.parse(text), value);
});

test('jsonText is held one byte a character, even made from two-byte strings of ASCII', () => {
  // A name sliced from a formula with a `−` in it is a two-byte string, though all ASCII.
  const formula = 'weeklyEarnings − offset';
  const sliced = formula.slice(0, formula.indexOf(' '));
  assert.is(stringWidth(formula), 'two-byte');
  assert.is(stringWidth(JSON.stringify(sliced)), 'two-byte', 'JSON.stringify keeps the width');
  assert.is(stringWidth(jsonText(sliced)), 'one-byte');
  assert.is(stringWidth(jsonText({ formula })), 'one-byte');
  assert.is(jsonText(sliced), '"weeklyEarnings"');
});

test.run();
