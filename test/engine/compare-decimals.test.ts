import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compareDecimals, Decimal } from '../../engine/money/decimal.ts';

// compareDecimals reads decimal.js's representation instead of calling `cmp`; decimal.js's own
// `cmp` is the oracle. The values cover what the representation makes hard: zeros of either sign,
// one and several digit words, equal leading words, exponents on either side of a word boundary.

/** A small deterministic generator, so that a failure names a reproducible case. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomDecimalText(next: () => number): string {
  const sign = next() < 0.3 ? '-' : '';
  const whole = String(Math.floor(next() * 10 ** Math.floor(next() * 16)));
  const fractionDigits = Math.floor(next() * 22);
  let fraction = '';
  for (let index = 0; index < fractionDigits; index++) fraction += String(Math.floor(next() * 10));
  const exponent = next() < 0.2 ? `e${Math.floor(next() * 60) - 30}` : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}${exponent}`;
}

const EDGES = ['0', '-0', '1', '-1', '0.1', '-0.1', '9999999', '10000000', '10000001', '99999999999999', '100000000000000', '1.0000000000001', '1.00000000000010001', '0.0000001', '0.00000001', '123456.7', '123456.70000001', '-123456.7', '1e-7', '1e7', '1e14', '-1e14', '9007199254740991', '9007199254740992', '0.5', '0.49999999999999999999'];

test('compares as decimal.js does: every pair of edge values', () => {
  const values = EDGES.map((text) => new Decimal(text));
  for (const a of values) {
    for (const b of values) {
      assert.is(Math.sign(compareDecimals(a, b)), a.cmp(b), `${a.toString()} against ${b.toString()}`);
    }
  }
});

test('compares as decimal.js does: random values, their neighbours and results of arithmetic', () => {
  const next = generator(20261127);
  for (let round = 0; round < 20_000; round++) {
    const a = new Decimal(randomDecimalText(next));
    const candidates = [new Decimal(randomDecimalText(next)), a, a.plus('1e-20'), a.minus('1e-20'), a.neg(), a.times(10), a.div(7), a.toDecimalPlaces(2)];
    for (const b of candidates) {
      assert.is(Math.sign(compareDecimals(a, b)), a.cmp(b), `${a.toString()} against ${b.toString()}`);
      assert.is(Math.sign(compareDecimals(b, a)), b.cmp(a), `${b.toString()} against ${a.toString()}`);
    }
  }
});

test('leaves NaN and infinities to decimal.js', () => {
  const infinite = new Decimal(Infinity);
  assert.is(compareDecimals(infinite, new Decimal(1)), 1);
  assert.is(compareDecimals(new Decimal(-Infinity), infinite), -1);
  assert.ok(Number.isNaN(compareDecimals(new Decimal(NaN), new Decimal(1))));
});

test.run();
