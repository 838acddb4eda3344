import fc from 'fast-check';

/** A marker planted in hostile input; no response may ever contain it. */
export const SENTINEL = 'QZX_SENTINEL_7731';

const validPayFacts = () => ({
  grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 165400, currency: 'AUD' }, period: 'weekly' },
  taxFreeThresholdClaimed: true,
});

/** Awkward leaf values: the sentinel, huge and odd numbers, unicode, prototype names. */
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(SENTINEL),
  fc.constantFrom(`${SENTINEL}\u0000`, `<script>${SENTINEL}</script>`, `${SENTINEL}\u202e\u{1F4A5}`),
  fc.constantFrom(1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -0, 0.1, -1, 1.5, 9007199254740993),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((text) => `${SENTINEL}${text}`),
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
);

/** Keys that probe prototype handling, plus the sentinel as a key. */
const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', SENTINEL, 'grossPay', 'facts', 'cents', '_tag', 'taxYear');

/** Any JSON-ish value with hostile leaves and keys, nested a little. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, hostileLeaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
})).value;

/** Valid pay facts with one part replaced by something hostile, so decoding reaches deep into them. */
export const mutatedFacts: fc.Arbitrary<unknown> = fc
  .tuple(fc.constantFrom('grossPay', 'grossPay.amount', 'grossPay.amount.cents', 'grossPay.period', 'grossPay.amount.currency', 'taxFreeThresholdClaimed', 'extra'), hostileValue)
  .map(([path, value]) => {
    const facts: any = validPayFacts();
    const steps = path.split('.');
    let target = facts;
    for (const step of steps.slice(0, -1)) target = target[step];
    Object.defineProperty(target, steps.at(-1)!, { value, enumerable: true, configurable: true, writable: true });
    return facts;
  });

/** Calculate bodies: hostile JSON text, envelopes with hostile parts, mutated facts, deep nesting. */
export const hostileBody: fc.Arbitrary<string> = fc.oneof(
  hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
  mutatedFacts.map((facts) => JSON.stringify({ facts })),
  fc.record({ facts: hostileValue, jurisdiction: hostileLeaf, taxYear: hostileLeaf }, { requiredKeys: ['facts'] }).map((body) => JSON.stringify(body)),
  fc.string({ maxLength: 200 }).map((text) => `${text}${SENTINEL}`),
  fc.integer({ min: 100, max: 5000 }).map((depth) => `${'['.repeat(depth)}"${SENTINEL}"${']'.repeat(depth)}`),
  fc.integer({ min: 100, max: 3000 }).map((depth) => `{"facts":${'{"a":'.repeat(depth)}"${SENTINEL}"${'}'.repeat(depth)}}`),
  fc.constant(`{"facts":{"__proto__":{"polluted":"${SENTINEL}"},"constructor":{"prototype":{"x":"${SENTINEL}"}}}}`),
);

/** Query-string values for any route: the sentinel with spaces, slashes, unicode and overlong text. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => `${SENTINEL}${text}`),
  fc.constantFrom(` ${SENTINEL}`, `/${SENTINEL}`, `/a/${SENTINEL.toLowerCase()}/../b`, `${SENTINEL}`.repeat(20), `/${'a'.repeat(300)}${SENTINEL}`),
  fc.string({ unit: 'grapheme', maxLength: 10 }).map((text) => `${text}${SENTINEL}`),
);
