import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPacks, runExamples, type LoadedPacks } from '../../engine/index.ts';
import { FIXTURE_PACKS } from '../helpers/packs.ts';

// Each case is test/fixtures/packs/<case>/fixture-pay/1.0.0: the valid pack with exactly one mistake.
// The validator must report that mistake once, at the place it was made, and nothing else: a reviewer
// who sees a follow-on diagnostic goes looking for a second mistake that is not there.

const PACK = 'fixture-pay/1.0.0';

/** Loads one fixture case, with files shown relative to the fixtures root as the CLI would show them. */
function load(name: string): LoadedPacks {
  return loadPacks([join(FIXTURE_PACKS, name)], { displayRoot: FIXTURE_PACKS });
}

interface Expected {
  kind: string;
  /** Relative to the pack folder. */
  file: string;
  line: number;
  column: number;
  /** Key words the message must contain. */
  words: string[];
}

interface Case {
  name: string;
  expected: Expected[];
}

const CASES: Case[] = [
  {
    name: 'yaml-syntax',
    // `provides: [levy` on line 4: the parser notices the missing `]` where the next line starts.
    expected: [{ kind: 'parse', file: 'rules/levy.yaml', line: 5, column: 1, words: ['end with a ]'] }],
  },
  {
    name: 'duplicate-key',
    expected: [{ kind: 'parse', file: 'rules/net-pay.yaml', line: 8, column: 1, words: ['duplicate key'] }],
  },
  {
    name: 'unknown-key',
    expected: [{ kind: 'schema', file: 'parameters/levy-rate.yaml', line: 3, column: 1, words: ['unknown key `descripton`', 'did you mean `description`?'] }],
  },
  {
    name: 'wrong-type',
    expected: [{ kind: 'schema', file: 'calculators/fixture.pay.net.yaml', line: 8, column: 21, words: ['`supportedHelpModes`', 'must be array'] }],
  },
  {
    name: 'unknown-operator',
    expected: [{ kind: 'expression', file: 'rules/levy.yaml', line: 11, column: 7, words: ['rule `levy`', 'unknown operator `==`', 'use `===`'] }],
  },
  {
    name: 'undeclared-variable',
    expected: [{ kind: 'expression', file: 'rules/net-pay.yaml', line: 8, column: 47, words: ['`levy` is not a required fact', 'add it to requires'] }],
  },
  {
    name: 'undeclared-parameter',
    expected: [{ kind: 'expression', file: 'rules/levy.yaml', line: 13, column: 43, words: ['`levy-rates` is not a declared parameter', 'did you mean `levy-rate`?'] }],
  },
  {
    name: 'duplicate-provider',
    expected: [{ kind: 'duplicate-provider', file: 'rules/surcharge.yaml', line: 4, column: 12, words: ['`levy`', 'rule `levy`', 'rule `surcharge`'] }],
  },
  {
    name: 'missing-provider',
    expected: [{ kind: 'missing-provider', file: 'rules/levy.yaml', line: 3, column: 12, words: ['`grossPy`', 'did you mean `grossPay`?'] }],
  },
  {
    name: 'missing-source-undeclared',
    expected: [{ kind: 'missing-source', file: 'rules/levy.yaml', line: 6, column: 11, words: ['`fixture-publicaton`', 'did you mean `fixture-publication`?'] }],
  },
  {
    name: 'missing-source-none',
    expected: [{ kind: 'missing-source', file: 'rules/net-pay.yaml', line: 5, column: 10, words: ['rule `net-pay`', 'sourcePolicy: required', 'cites none'] }],
  },
  {
    name: 'parameter-overlap',
    // The first value's end was mistyped as 2026-07-01; the overlap is reported on the value it runs into.
    expected: [{ kind: 'parameter-overlap', file: 'parameters/levy-rate.yaml', line: 8, column: 5, words: ['`levy-rate`', 'from 2025-07-01 overlaps', 'until 2026-07-01'] }],
  },
  {
    name: 'parameter-source-mismatch',
    expected: [{ kind: 'parameter-source-mismatch', file: 'parameters/levy-rate.yaml', line: 9, column: 13, words: ['`fixture-working`', 'internal-validation'] }],
  },
  {
    name: 'cycle',
    expected: [{ kind: 'cycle', file: 'rules/levy.yaml', line: 1, column: 1, words: ['`levy` → `net-pay` → `levy`'] }],
  },
  // Further realistic single mistakes, kept because each shows a follow-on the engine should not report.
  {
    name: 'facts-syntax',
    expected: [{ kind: 'parse', file: 'facts.yaml', line: 7, column: 3, words: ['end with a }'] }],
  },
  {
    name: 'unknown-required-key',
    expected: [{ kind: 'schema', file: 'rules/net-pay.yaml', line: 9, column: 1, words: ['unknown key `explanaton`', 'did you mean `explanation`?'] }],
  },
  {
    name: 'wrong-type-value',
    expected: [{ kind: 'schema', file: 'parameters/levy-rate.yaml', line: 10, column: 12, words: ['`values[1].value`'] }],
  },
  {
    name: 'wrong-type-requires',
    expected: [{ kind: 'schema', file: 'rules/levy.yaml', line: 3, column: 11, words: ['`requires` must be array'] }],
  },
];

const where = (kind: string, file: string, line: number, column: number) => `${file}:${line}:${column} ${kind}`;

for (const { name, expected } of CASES) {
  test(`${name}: exactly the one diagnostic`, () => {
    const loaded = load(name);
    assert.is(loaded.packs.length, 1);
    const actual = loaded.diagnostics.map((diagnostic) => where(diagnostic.kind, diagnostic.location.file, diagnostic.location.line, diagnostic.location.column));
    const explanation = ['messages:', ...loaded.diagnostics.map((diagnostic) => `  ${diagnostic.message}`)].join('\n');
    assert.equal(actual, expected.map((item) => where(item.kind, `${name}/${PACK}/${item.file}`, item.line, item.column)), explanation);
    expected.forEach((item, index) => {
      for (const word of item.words) assert.ok(loaded.diagnostics[index]!.message.includes(word), `message of ${name} lacks "${word}": ${loaded.diagnostics[index]!.message}`);
    });
  });
}

test('the valid fixture loads cleanly and its example passes', () => {
  const loaded = load('valid');
  assert.equal(loaded.diagnostics, []);
  const [report] = loaded.packs;
  assert.is(report!.plans.length, 1);
  const results = runExamples(report!.pack.examples, report!.plans);
  assert.equal(results.map((result) => [result.example.name, result.passed]), [['one payment', true]]);
});

test('failing-example: no diagnostics, and the example reports the figure that differs', () => {
  const loaded = load('failing-example');
  assert.equal(loaded.diagnostics, []);
  const [report] = loaded.packs;
  const [result] = runExamples(report!.pack.examples, report!.plans);
  assert.is(result!.passed, false);
  assert.is(result!.error, undefined);
  // 123456 cents × 0.1 = 12345.6, floored to 12345; net pay 123456 − 12345 = 111111, not the 111110 expected.
  assert.equal(result!.mismatches, [{ factId: 'netPay', expected: 111110, actual: 111111 }]);
  assert.equal(result!.example.at, { file: `failing-example/${PACK}/examples/worked.yaml`, line: 2, column: 5 });
});

/** Every file of a pack folder, relative to it. */
function filesOf(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesOf(join(dir, entry.name), root) : [relative(root, join(dir, entry.name))]))
    .sort();
}

test('each broken fixture differs from the valid one in exactly one file', () => {
  const valid = join(FIXTURE_PACKS, 'valid', PACK);
  for (const name of [...CASES.map((item) => item.name), 'failing-example']) {
    const dir = join(FIXTURE_PACKS, name, PACK);
    const files = [...new Set([...filesOf(valid), ...filesOf(dir)])];
    const changed = files.filter((file) => {
      const [a, b] = [join(valid, file), join(dir, file)];
      return !existsSync(a) || !existsSync(b) || readFileSync(a, 'utf8') !== readFileSync(b, 'utf8');
    });
    assert.is(changed.length, 1, `${name} changes ${changed.join(', ') || 'nothing'}`);
  }
});

test.run();
