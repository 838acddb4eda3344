import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Decimal } from '../../engine/money/decimal.ts';
import { centsNumber } from '../../engine/run/shapes.ts';

test('centsNumber gives exactly the number of every safe integer amount, by its fast or slow road', () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(0, 1e7, 1e14, 1e15, 9007199254740991, -9007199254740991)), (amount) => {
      assert.is(centsNumber(new Decimal(amount)), amount);
    }),
    { numRuns: 5000, seed: 11 },
  );
  assert.is(centsNumber(new Decimal('14749.8773').toDecimalPlaces(0)), 14750);
});

test.run();
