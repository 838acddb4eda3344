import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Decimal } from '../../engine/money/decimal.ts';
import { beyondExactCents, centsNumber } from '../../engine/contract/fact-shapes.ts';

test('centsNumber gives exactly the number of every safe integer amount, by its fast or slow road', () => {
  fc.assert(
    fc.property(fc.oneof(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(0, 1e7, 1e14, 1e15, 9007199254740991, -9007199254740991)), (amount) => {
      assert.is(centsNumber(new Decimal(amount)), amount);
    }),
    { numRuns: 5000, seed: 11 },
  );
  assert.is(centsNumber(new Decimal('14749.8773').toDecimalPlaces(0)), 14750);
});

test('beyondExactCents: an amount is beyond when JSON cannot carry its cents exactly, either sign', () => {
  const safe = '9007199254740991'; // 2^53 - 1, the largest integer a JSON number carries exactly
  for (const [amount, beyond] of [
    ['0', false],
    ['-0', false],
    [safe, false],
    [`-${safe}`, false],
    ['9007199254740992', true],
    ['-9007199254740992', true],
    ['9007199254740991.5', true],
    ['1e30', true],
    ['-1e30', true],
    ['123456.78', false],
  ] as const) {
    assert.is(beyondExactCents(new Decimal(amount)), beyond, amount);
  }
});

test.run();
