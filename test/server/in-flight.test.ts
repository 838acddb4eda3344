import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { inFlight } from '../../server/http/in-flight.ts';

test('in-flight holds exactly what was added and not yet removed, through any order of adds and removes', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 15 })), { maxLength: 200 }), (operations) => {
      const items = Array.from({ length: 16 }, (_, id) => ({ id }));
      const tracked = inFlight<{ id: number }>();
      const expected = new Set<{ id: number }>();
      for (const [adding, which] of operations) {
        const item = items[which]!;
        if (adding) {
          tracked.add(item);
          expected.add(item);
        } else assert.is(tracked.delete(item), expected.delete(item), 'delete says whether the item was there');
        assert.is(tracked.size, expected.size);
      }
      assert.equal(new Set(tracked.snapshot()), expected);
    }),
    { numRuns: 300, seed: 11 },
  );
});

test('an item can be in two in-flight sets at once, and removing it from one leaves the other', () => {
  const item = { id: 1 };
  const first = inFlight<{ id: number }>();
  const second = inFlight<{ id: number }>();
  first.add(item);
  second.add(item);
  assert.ok(first.delete(item));
  assert.equal(second.snapshot(), [item]);
  assert.is(first.size, 0);
});

test('the snapshot is a copy: removing items while going through it misses none', () => {
  const items = Array.from({ length: 5 }, (_, id) => ({ id }));
  const tracked = inFlight<{ id: number }>();
  for (const item of items) tracked.add(item);
  const seen: number[] = [];
  for (const item of tracked.snapshot()) {
    seen.push(item.id);
    tracked.delete(item);
  }
  assert.equal(seen.sort(), [0, 1, 2, 3, 4]);
  assert.is(tracked.size, 0);
});

test.run();
