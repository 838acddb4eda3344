import { Decimal } from '../money/decimal.ts';
import { FUNCTIONS, INFIX_OPERATORS, MINUS, PRECEDENCE } from './formula-syntax.ts';
import { align, group, indent, join, layout, line, softLine, type Doc } from './layout.ts';

/** The width formulas are laid out to in pack files (a trace shows every formula on one line). */
export const FORMULA_WIDTH = 96;

const INFIX = new Map(INFIX_OPERATORS.map((infix) => [infix.operator, infix]));

interface Rendered {
  doc: Doc;
  precedence: number;
}

/**
 * Writes a json-logic expression as formula text: on one line by default, or laid out to a width.
 * Parsing the text gives the expression back, operand for operand; anything outside the language
 * is written as JSON.
 */
export function renderFormula(expression: unknown, options: { width?: number } = {}): string {
  return layout(render(expression).doc, options.width ?? Infinity);
}

function render(node: unknown): Rendered {
  if (typeof node === 'number') {
    const digits = new Decimal(String(node)).abs().toFixed();
    return node < 0 || Object.is(node, -0) ? { doc: `${MINUS.symbol}${digits}`, precedence: PRECEDENCE.negation } : atom(digits);
  }
  if (typeof node === 'boolean') return atom(String(node));
  if (typeof node === 'string') return atom(JSON.stringify(node));
  if (typeof node !== 'object' || node === null || Array.isArray(node) || Object.keys(node).length !== 1) return atom(JSON.stringify(node));
  const [operator, raw] = Object.entries(node)[0]!;
  const operands: unknown[] = Array.isArray(raw) ? raw : [raw];
  switch (operator) {
    case 'var':
    case 'param':
      return typeof operands[0] === 'string' && operands.length === 1 ? atom(operands[0]) : atom(JSON.stringify(node));
    case 'let':
      return renderLet(operands, node);
    case 'if':
      return operands.length >= 3 && operands.length % 2 === 1 ? renderIf(operands) : atom(JSON.stringify(node));
    case '!':
      return operands.length === 1 ? { doc: ['not ', wrap(render(operands[0]), PRECEDENCE.negation)], precedence: PRECEDENCE.not } : atom(JSON.stringify(node));
    case 'round':
      return operands.length === 2 && typeof operands[0] === 'string' ? call(operands[0], [operands[1]]) : atom(JSON.stringify(node));
    case '-':
      if (operands.length === 1) {
        const operand = render(operands[0]);
        // `−5` is the number −5; minus applied to the number 5 keeps its parentheses.
        const bound = typeof operands[0] === 'number' && operands[0] >= 0 ? PRECEDENCE.atom + 1 : PRECEDENCE.negation;
        return { doc: [MINUS.symbol, wrap(operand, bound)], precedence: PRECEDENCE.negation };
      }
  }
  if (Object.hasOwn(FUNCTIONS, operator)) return call(operator, operands);
  const infix = INFIX.get(operator);
  const arity = infix?.variadic ? operands.length >= 2 : infix?.chains ? operands.length === 2 || operands.length === 3 : operands.length === 2;
  if (!infix || !arity) return atom(JSON.stringify(node));
  const { precedence } = infix;
  const parts = operands.map((operand, index) => {
    const rendered = render(operand);
    // The first operand of `a + b` may itself be a sum only in parentheses: unbracketed, the parser
    // would read one sum of three operands.
    const sameRun = index === 0 && infix.variadic && isOperation(operand, operator);
    const bound = index === 0 && !sameRun && precedence !== PRECEDENCE.comparison ? precedence : precedence + 1;
    return wrap(rendered, bound);
  });
  return { doc: join(` ${infix.symbol} `, parts), precedence };
}

function renderLet(operands: unknown[], node: object): Rendered {
  const [bindings, body] = operands;
  if (operands.length !== 2 || typeof bindings !== 'object' || bindings === null || Array.isArray(bindings)) return atom(JSON.stringify(node));
  const values = Object.entries(bindings).map(([name, value]) => [name, ' = ', render(value).doc]);
  return { doc: group(['let ', align(join([';', line], values)), line, 'in ', align(render(body).doc)]), precedence: PRECEDENCE.open };
}

function renderIf(operands: unknown[]): Rendered {
  const branch = (operand: unknown) => wrap(render(operand), PRECEDENCE.open + 1);
  const parts: Doc[] = [];
  for (let index = 0; index + 1 < operands.length; index += 2) {
    parts.push([index === 0 ? 'if ' : 'else if ', branch(operands[index]), ' then ', branch(operands[index + 1])], line);
  }
  parts.push(['else ', branch(operands.at(-1))]);
  return { doc: group(align(parts)), precedence: PRECEDENCE.open };
}

function call(name: string, operands: unknown[]): Rendered {
  const args = operands.map((operand) => render(operand).doc);
  return atom(group([name, '(', indent(2, [softLine, join([',', line], args)]), softLine, ')']));
}

function wrap(rendered: Rendered, bound: number): Doc {
  return rendered.precedence < bound ? ['(', rendered.doc, ')'] : rendered.doc;
}

function atom(doc: Doc): Rendered {
  return { doc, precedence: PRECEDENCE.atom };
}

function isOperation(node: unknown, operator: string): boolean {
  return typeof node === 'object' && node !== null && !Array.isArray(node) && Object.keys(node).length === 1 && Object.hasOwn(node, operator);
}
