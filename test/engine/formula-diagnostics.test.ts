import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPacks, runExamples, type LoadedPacks } from '../../engine/index.ts';
import { FIXTURE_PACKS } from '../helpers/packs.ts';

// Each test/fixtures/formulas/<case>.yaml replaces rules/levy.yaml of the valid fixture pack. Its
// mistake must give exactly one diagnostic, at the line and column inside the formula where the
// mistake is, whatever YAML style the formula is written in, saying what was expected.

const FORMULAS = new URL('../fixtures/formulas/', import.meta.url);
const RULE = 'fixture-pay/1.0.0/rules/levy.yaml';

interface Case {
  name: string;
  kind?: string;
  line: number;
  column: number;
  /** The text the location must point at. */
  at: string;
  words: string[];
}

const CASES: Case[] = [
  { name: 'unknown-name', line: 9, column: 21, at: 'levy-rat', words: ['`levy-rat` is not a required fact, parameter or `let` value', 'did you mean `levy-rate`?'] },
  { name: 'misspelt-keyword', line: 10, column: 19, at: 'thn', words: ['expected `then` after the condition', 'found the name `thn`', 'did you mean `then`?'] },
  { name: 'unclosed-call', line: 12, column: 25, at: '', words: ['expected `,` or `)` in the call of `max`', 'found the end of the formula'] },
  { name: 'foreign-operator', line: 9, column: 22, at: '==', words: ['expected `then`', 'found `==`', 'did you mean `=`?'] },
  { name: 'subtraction-needs-spaces', line: 9, column: 10, at: 'grossPay-levy-rate', words: ['did you mean `grossPay - levy-rate`?', 'a space on each side of `-`'] },
  { name: 'unknown-function', line: 9, column: 10, at: 'maxx', words: ['`maxx` is neither a function', 'nor a rounding mode', 'did you mean `max`?'] },
  { name: 'round-is-a-mode', line: 9, column: 10, at: 'round', words: ['`round` is neither a function', 'the rounding mode as the function', '`round-to-nearest-cent(amount)`'] },
  { name: 'wrong-arity', line: 9, column: 10, at: 'bracket', words: ['`bracket` takes 2 values (table, amount)', 'found 1'] },
  { name: 'missing-operator', line: 9, column: 19, at: 'levy-rate', words: ['expected an operator or the end of the formula', 'found the name `levy-rate`'] },
  { name: 'missing-else', line: 10, column: 25, at: '', words: ['expected `else`', 'every `if` has an `else`', 'found the end of the formula'] },
  { name: 'comparison-chain', line: 9, column: 26, at: '>', words: ['`>` cannot follow a comparison', 'join two comparisons with `and`'] },
  { name: 'unterminated-text', line: 9, column: 13, at: '"weekly', words: ['no closing `"`'] },
  { name: 'folded-style', line: 11, column: 30, at: '', words: ['expected a value', 'found the end of the formula'] },
  { name: 'quoted-style', line: 9, column: 29, at: 'levy-rat', words: ['did you mean `levy-rate`?'] },
  // Found by the checker, not the parser: still located inside the formula.
  { name: 'type-error', line: 11, column: 6, at: 'grossPay × zero', words: ['`×` takes numbers'] },
  { name: 'unknown-field', line: 9, column: 10, at: 'grossPay.amount', words: ['`grossPay.amount` has no field `amount`'] },
  { name: 'formula-and-expression', kind: 'schema', line: 1, column: 1, at: 'id: levy', words: ['exactly one of `formula` or `expression` or `ledger`'] },
];

/** Loads the valid fixture pack with rules/levy.yaml replaced by a formula fixture. */
function loadWith(name: string): { loaded: LoadedPacks; lines: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'formula-fixture-'));
  try {
    cpSync(join(FIXTURE_PACKS, 'valid'), dir, { recursive: true });
    const text = readFileSync(new URL(`${name}.yaml`, FORMULAS), 'utf8');
    cpSync(new URL(`${name}.yaml`, FORMULAS), join(dir, RULE));
    return { loaded: loadPacks([dir], { displayRoot: dir }), lines: text.split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const item of CASES) {
  test(`${item.name}: one diagnostic, inside the formula`, () => {
    const { loaded, lines } = loadWith(item.name);
    const messages = loaded.diagnostics.map((diagnostic) => diagnostic.message).join('\n');
    assert.equal(
      loaded.diagnostics.map(({ kind, location }) => `${location.file}:${location.line}:${location.column} ${kind}`),
      [`${RULE}:${item.line}:${item.column} ${item.kind ?? 'expression'}`],
      messages,
    );
    const pointedAt = lines[item.line - 1]!.slice(item.column - 1);
    assert.ok(pointedAt.startsWith(item.at) && (item.at !== '' || pointedAt === ''), `points at ${JSON.stringify(pointedAt)}`);
    for (const word of item.words) assert.ok(messages.includes(word), `lacks "${word}": ${messages}`);
  });
}

test('the valid formula loads cleanly and computes the example', () => {
  const { loaded } = loadWith('valid');
  assert.equal(loaded.diagnostics, []);
  const [report] = loaded.packs;
  const results = runExamples(report!.pack.examples, report!.plans);
  assert.equal(results.map((result) => [result.example.name, result.passed]), [['one payment', true]]);
});

test.run();
