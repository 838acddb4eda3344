import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { JsonBytes } from '../../engine/report/json-bytes.ts';

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

test.run();
