import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FORMULA_WIDTH, formulaNames, parseFormula, renderFormula, type FormulaNames, type PackDef, type RuleDef } from '../../engine/index.ts';
import { shippedPacks } from '../helpers/packs.ts';

// The formula text of a rule and the json-logic it compiles to are two views of one thing: the
// renderer writes what the parser reads, operand for operand. Checked on every shipped rule, and on
// random expressions, layouts and spellings.

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20251123);

const shippedRules: { pack: PackDef; rule: RuleDef }[] = shippedPacks().loaded.packs.flatMap((report) =>
  report.pack.rules.filter((rule) => !rule.ledger).map((rule) => ({ pack: report.pack, rule })),
);

function parsed(text: string, names: FormulaNames): unknown {
  const result = parseFormula(text, names);
  assert.equal(result.problems, [], `problems parsing ${JSON.stringify(text)}`);
  return result.expression;
}

test('every shipped rule is written as a formula, not as json-logic', () => {
  assert.ok(shippedRules.length > 0);
  const jsonLogic = shippedRules.filter(({ rule }) => rule.formula === undefined).map(({ pack, rule }) => `${pack.id}/${pack.version} ${rule.id}`);
  assert.equal(jsonLogic, [], 'rules still written as json-logic: convert them with `npm run to-formula -- rulepacks`');
});

test('every shipped formula is written as the renderer lays it out: render(parse(text)) gives the text back', () => {
  for (const { pack, rule } of shippedRules) {
    const expression = parsed(rule.formula!, formulaNames(rule, pack));
    assert.is(renderFormula(expression, { width: FORMULA_WIDTH }), rule.formula, `${rule.id} is not in the renderer's layout: run \`npm run to-formula -- rulepacks\``);
  }
});

test('every shipped expression reads back from its rendering, on one line or laid out: parse(render(ast)) = ast', () => {
  for (const { pack, rule } of shippedRules) {
    const names = formulaNames(rule, pack);
    assert.equal(parsed(renderFormula(rule.expression), names), rule.expression, rule.id);
    assert.equal(parsed(renderFormula(rule.expression, { width: FORMULA_WIDTH }), names), rule.expression, rule.id);
  }
});

// Each symbol with its ASCII spelling, and line breaks anywhere a space is.
const ASCII: Record<string, string> = { '×': '*', '÷': '/', '−': '-', '≤': '<=', '≥': '>=', '≠': '!=' };
const respelling = fc.array(fc.constantFrom(' ', '  ', '\n', '\n    ', '\t'), { minLength: 64, maxLength: 64 });

test('a shipped formula respaced and spelled in ASCII reads as the same expression and renders back to the same text', () => {
  fc.assert(
    fc.property(fc.constantFrom(...shippedRules), respelling, fc.boolean(), ({ pack, rule }, spaces, ascii) => {
      let index = 0;
      let text = rule.formula!.replace(/ +|\n +/g, () => spaces[index++ % spaces.length]!);
      if (ascii) text = text.replace(/[×÷−≤≥≠]/g, (symbol) => ASCII[symbol]!);
      const names = formulaNames(rule, pack);
      const expression = parsed(text, names);
      assert.equal(expression, rule.expression);
      assert.is(renderFormula(expression, { width: FORMULA_WIDTH }), rule.formula);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

// Random expressions of every form the language has, over a few names of each kind.
const NAMES: FormulaNames = {
  facts: ['grossPay', 'taxableIncome', 'row', 'period'],
  parameters: ['levy-rate', 'withholding-scale-2', 'threshold'],
  roundingModes: ['floor-dollar', 'round-to-nearest-cent', 'ato-withholding-rounding'],
};
const { expression: arbitraryExpression } = fc.letrec<{ expression: unknown }>((tie) => {
  const operand = tie('expression');
  const operands = (min: number, max: number) => fc.array(operand, { minLength: min, maxLength: max });
  const operation = (operator: string, min: number, max: number) => operands(min, max).map((list) => ({ [operator]: list }));
  return {
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(
        fc.integer({ min: -100_000, max: 100_000 }).map((cents) => cents / 100),
        fc.boolean(),
        fc.constantFrom('weekly', 'fortnightly', 'monthly'),
        fc.constantFrom('grossPay', 'taxableIncome', 'row.a', 'row.b', 'period').map((name) => ({ var: name })),
        fc.constantFrom(...NAMES.parameters).map((id) => ({ param: id })),
      ),
      operation('+', 2, 4),
      operation('*', 2, 4),
      operation('and', 2, 3),
      operation('or', 2, 3),
      operation('-', 1, 2),
      operation('/', 2, 2),
      operation('%', 2, 2),
      operation('===', 2, 2),
      operation('!==', 2, 2),
      operation('<', 2, 3),
      operation('<=', 2, 3),
      operation('>', 2, 2),
      operation('>=', 2, 2),
      operation('!', 1, 1),
      operation('min', 1, 3),
      operation('max', 1, 3),
      operation('bracket', 2, 2),
      operation('progressive', 2, 2),
      fc.tuple(fc.constantFrom(...NAMES.roundingModes), operand).map(([mode, amount]) => ({ round: [mode, amount] })),
      fc.integer({ min: 1, max: 2 }).chain((pairs) => operands(2 * pairs + 1, 2 * pairs + 1)).map((list) => ({ if: list })),
      fc.tuple(fc.uniqueArray(fc.constantFrom('weeklyEarnings', 'scale', 'taper'), { minLength: 1, maxLength: 3 }), operands(3, 3), operand).map(
        ([names, values, body]) => ({ let: [Object.fromEntries(names.map((name, index) => [name, values[index]])), body] }),
      ),
    ),
  };
});

test('any expression reads back from its rendering at any width, and renders to the same text again', () => {
  fc.assert(
    fc.property(arbitraryExpression, fc.oneof(fc.integer({ min: 10, max: 140 }), fc.constant(Infinity)), (expression, width) => {
      const text = renderFormula(expression, { width });
      const reread = parsed(text, NAMES);
      assert.equal(reread, expression, text);
      assert.is(renderFormula(reread, { width }), text);
    }),
    { numRuns: RUNS * 3, seed: SEED },
  );
});

test.run();
