import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFormula, renderFormula, type FormulaNames } from '../../engine/index.ts';

// What the language means, written out: each formula with the json-logic it must compile to.

const NAMES: FormulaNames = { facts: ['pay', 'period', 'row', 'claimed'], parameters: ['rate', 'levy-rate', 'scale'], roundingModes: ['floor-dollar'] };

const read = (text: string) => {
  const { expression, problems } = parseFormula(text, NAMES);
  assert.equal(problems, [], text);
  return expression;
};

test('precedence: × before +, comparisons before not, not before and, and before or', () => {
  assert.equal(read('pay + rate × 2'), { '+': [{ var: 'pay' }, { '*': [{ param: 'rate' }, 2] }] });
  assert.equal(read('not pay = 0 and claimed or period = "weekly"'), {
    or: [{ and: [{ '!': [{ '===': [{ var: 'pay' }, 0] }] }, { var: 'claimed' }] }, { '===': [{ var: 'period' }, 'weekly'] }],
  });
});

test('a run of one operator is one operation; − and ÷ group to the left', () => {
  assert.equal(read('pay + 1 + 2'), { '+': [{ var: 'pay' }, 1, 2] });
  assert.equal(read('pay - 1 - 2'), { '-': [{ '-': [{ var: 'pay' }, 1] }, 2] });
  assert.equal(read('pay × 13 ÷ 3'), { '/': [{ '*': [{ var: 'pay' }, 13] }, 3] });
  assert.equal(read('(pay + 1) + 2'), { '+': [{ '+': [{ var: 'pay' }, 1] }, 2] });
});

test('ASCII spellings mean the same as the symbols', () => {
  for (const [ascii, symbol] of [['*', '×'], ['/', '÷'], ['-', '−'], ['<=', '≤'], ['>=', '≥'], ['!=', '≠']]) {
    assert.equal(read(`pay ${ascii} 2`), read(`pay ${symbol} 2`), ascii);
  }
});

test('names: facts with fields, kebab-case parameters, `let` values; a minus before a number makes it negative', () => {
  assert.equal(read('row.a × levy-rate - -5'), { '-': [{ '*': [{ var: 'row.a' }, { param: 'levy-rate' }] }, -5] });
  assert.equal(read('let scale = 2; x = scale in x'), { let: [{ scale: 2, x: { var: 'scale' } }, { var: 'x' }] });
  assert.equal(read('−(5)'), { '-': [5] });
});

test('if chains, chained comparisons, functions and rounding modes', () => {
  assert.equal(read('if claimed then 1 else if 0 ≤ pay ≤ 10 then 2 else 3'), {
    if: [{ var: 'claimed' }, 1, { '<=': [0, { var: 'pay' }, 10] }, 2, 3],
  });
  assert.equal(read('if claimed then 1 else (if claimed then 2 else 3)'), { if: [{ var: 'claimed' }, 1, { if: [{ var: 'claimed' }, 2, 3] }] });
  assert.equal(read('floor-dollar(max(0, pay mod 100))'), { round: ['floor-dollar', { max: [0, { '%': [{ var: 'pay' }, 100] }] }] });
  assert.equal(read('bracket(scale, pay)'), { bracket: [{ param: 'scale' }, { var: 'pay' }] });
});

test('the renderer writes the symbols, and parentheses only where the meaning needs them', () => {
  assert.is(renderFormula(read('not (pay = 0) and pay*2 >= 3')), 'not (pay = 0) and pay × 2 ≥ 3');
  assert.is(renderFormula({ '+': [{ '+': [1, 2] }, 3] }), '(1 + 2) + 3');
  assert.is(renderFormula({ '-': [1, { '-': [2, 3] }] }), '1 − (2 − 3)');
});

test('a formula nested past any sensible depth is a problem, not a crash', () => {
  for (const text of ['('.repeat(5000) + 'pay' + ')'.repeat(5000), '-'.repeat(5000) + 'pay', 'not '.repeat(5000) + 'claimed']) {
    const { expression, problems } = parseFormula(text, NAMES);
    assert.is(expression, undefined);
    assert.match(problems[0]!.message, /nests more than 100 levels deep/);
  }
});

test('every problem of the unknown-name kind is reported, not only the first', () => {
  const { problems } = parseFormula('pai + rat + levy_rate', NAMES);
  assert.equal(problems.map((problem) => [problem.start, problem.end]), [[0, 3], [6, 9], [12, 21]]);
});

test('any text at all gives an expression or located problems, never an exception', () => {
  const pieces = ['pay', 'rate', 'levy-rate', 'row.a', 'floor-dollar', 'max', 'bracket', 'let', 'in', 'if', 'then', 'else', 'not', 'and', 'mod', '=', ';', ',', '(', ')', '−', '-', '×', '*', '÷', '<', '≤', '"weekly', '"', '.', '0', '1.5', ' ', '\n', '#', '€', '\u{1F600}'];
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(' '))), (text) => {
      const { expression, problems } = parseFormula(text, NAMES);
      assert.ok((expression === undefined) !== (problems.length === 0), text);
      for (const problem of problems) assert.ok(problem.start >= 0 && problem.start <= text.length && problem.end >= problem.start, text);
    }),
    { numRuns: 2000, seed: 20251123 },
  );
});

test.run();
