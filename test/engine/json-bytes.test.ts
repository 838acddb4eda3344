import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonBytes } from '../../engine/json/json-bytes.ts';

// Each report is written into a buffer of its own, which grows as needed.

test('pieces, text, single characters and copies land in order, across the buffer growing', () => {
  const out = new JsonBytes(4);
  out.piece(Buffer.from('{"a":'));
  const start = out.length;
  out.ascii('[1234567890');
  out.byte(0x5d);
  const end = out.length;
  out.byte(0x2c);
  out.again(start, end);
  out.byte(0x7d);
  assert.is(out.bytes().toString(), '{"a":[1234567890],[1234567890]}');
});

test('a copy of more than is left in the buffer grows it first', () => {
  const out = new JsonBytes(8);
  out.ascii('abcdefg');
  out.again(0, 7);
  assert.is(out.bytes().toString(), 'abcdefgabcdefg');
});

test('each text is its own: a later one never writes over an earlier one', () => {
  const out = new JsonBytes(64);
  out.ascii('first');
  const first = out.bytes();
  out.reset();
  out.ascii('2nd');
  assert.is(first.toString(), 'first');
  assert.is(first.length, 5);
  assert.is(out.bytes().toString(), '2nd');
});

test('integers are written as JSON.stringify writes them', () => {
  const values = [0, -0, 1, -1, 9, 10, 99, 100, 101, 41712, -41712, 999_999_999, 1_000_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, 0.5];
  for (let power = 1; power < 1e16; power *= 10) values.push(power - 1, power, power + 1);
  for (const value of values) {
    const out = new JsonBytes(2);
    out.integer(value);
    assert.is(out.bytes().toString(), JSON.stringify(value), String(value));
  }
});

test.run();
