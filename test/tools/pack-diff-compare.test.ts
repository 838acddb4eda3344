import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonical } from '../../tools/lib/canonical.ts';
import { fieldChange, listChange, pairById, period, same } from '../../tools/pack-diff/compare.ts';

// The comparisons pack-diff is built from, in-process.

test('equality of meaning: key order does not count, list order does', () => {
  assert.ok(same({ type: 'record', fields: { a: 1, b: [1, 2] } }, { fields: { b: [1, 2], a: 1 }, type: 'record' }));
  assert.not.ok(same([1, 2], [2, 1]));
  assert.not.ok(same({ a: '0.1' }, { a: 0.1 }), 'a quoted number is written differently and may mean a different unit');
  assert.is(canonical({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}');
});

test('changes read as old → new, naming what came and went', () => {
  assert.equal(fieldChange('rounding', 'floor-cent', 'floor-cent'), []);
  assert.equal(fieldChange('rounding', 'floor-cent', 'round-to-nearest-cent'), ['rounding: floor-cent → round-to-nearest-cent']);
  assert.equal(fieldChange('note', undefined, 'new'), ['note: (none) → new']);
  assert.equal(listChange('requires', ['a', 'b'], ['a', 'c']), ['requires: [a, b] → [a, c] (+c, -b)']);
  assert.equal(listChange('requires', ['a', 'b'], ['b', 'a']), ['requires: [a, b] → [b, a] (order)']);
  assert.is(period({ from: '2025-07-01', toExclusive: null }), 'from 2025-07-01');
  assert.is(period({ from: '2024-07-01', toExclusive: '2026-07-01' }), '2024-07-01 to before 2026-07-01');
});

test('items pair by id', () => {
  const paired = pairById([{ id: 'a' }, { id: 'b' }], [{ id: 'b' }, { id: 'c' }]);
  assert.equal(paired, { removed: [{ id: 'a' }], added: [{ id: 'c' }], both: [[{ id: 'b' }, { id: 'b' }]] });
});

test.run();
