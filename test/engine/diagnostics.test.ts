import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPacks, runExamples, type LoadedPacks } from '../../engine/index.ts';
import { FIXTURE_PACKS, SHIPPED_PACKS } from '../helpers/packs.ts';

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
    // `provides: [levy` on line 4: reported where the `[` opens, not where the parser notices it unclosed.
    expected: [{ kind: 'parse', file: 'rules/levy.yaml', line: 4, column: 11, words: ['`provides`', 'no closing `]`'] }],
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
    expected: [{ kind: 'schema', file: 'calculators/fixture.pay.net.yaml', line: 8, column: 21, words: ['`supportedHelpModes`', 'must be a list'] }],
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
    name: 'parameter-gap',
    // The second value was dated 2025-10-01 instead of 2025-07-01: nothing is in force for July to September.
    expected: [
      {
        kind: 'parameter-gap',
        file: 'parameters/levy-rate.yaml',
        line: 5,
        column: 3,
        words: ['`levy-rate`', 'whole 2025-26 tax year', 'only part of it (from 2025-10-01 without end)', 'Fix:', '`{ from: 2025-07-01, toExclusive: null }`'],
      },
    ],
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
    expected: [{ kind: 'parse', file: 'facts.yaml', line: 6, column: 12, words: ['`shape`', 'no closing `}`'] }],
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
    expected: [{ kind: 'schema', file: 'rules/levy.yaml', line: 3, column: 11, words: ['`requires` must be a list'] }],
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

test('every parameter without a value for the pack\'s year is named, each at its values, and nothing is planned', () => {
  // The shipped income tax pack moved to an earlier year by editing pack.yaml only, the way an analyst
  // starts a new year's pack: none of its parameters has a value in force for the whole of 2023-24.
  const root = mkdtempSync(join(tmpdir(), 'parameter-gap-'));
  try {
    const dir = join(root, 'rules-au-income-tax', '1.0.0');
    cpSync(join(SHIPPED_PACKS, 'rules-au-income-tax', '1.0.0'), dir, { recursive: true });
    const packFile = join(dir, 'pack.yaml');
    const year = /taxYear:\n  id: \d{4}-\d{2}\n  from: \d{4}-\d{2}-\d{2}\n  toExclusive: \d{4}-\d{2}-\d{2}\n/;
    assert.match(readFileSync(packFile, 'utf8'), year);
    writeFileSync(packFile, readFileSync(packFile, 'utf8').replace(year, 'taxYear:\n  id: 2023-24\n  from: 2023-07-01\n  toExclusive: 2024-07-01\n'));

    const loaded = loadPacks([root], { displayRoot: root });
    const named = loaded.diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.location.file, diagnostic.message.match(/^parameter `([^`]+)`/)?.[1]]);
    const parameters = readdirSync(join(dir, 'parameters')).map((name) => name.replace(/\.yaml$/, '')).sort();
    assert.equal(named, parameters.map((id) => ['parameter-gap', `rules-au-income-tax/1.0.0/parameters/${id}.yaml`, id]));
    for (const diagnostic of loaded.diagnostics) {
      assert.ok(diagnostic.message.includes('2023-24') && diagnostic.message.includes('Fix:'), diagnostic.message);
      const lines = readFileSync(join(root, diagnostic.location.file), 'utf8').split('\n');
      assert.is(diagnostic.location.line, lines.indexOf('values:') + 2, `${diagnostic.location.file}: located at its first value`);
    }
    assert.equal(loaded.packs[0]!.plans, []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
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
