import { Decimal } from '../money/decimal.ts';
import { suggest } from '../model/suggest.ts';
import { tokenize, type Token } from './formula-lex.ts';
import { ScopedNames } from './scoped-names.ts';
import { FOREIGN_SYMBOLS, FUNCTIONS, INFIX_OPERATORS, KEYWORDS, MINUS, PRECEDENCE, type InfixOperator } from './formula-syntax.ts';
import { PACK_LIMITS } from '../model/limits.ts';

/** The names a rule's formula may use: the rule's required facts and parameters, and the pack's rounding modes. */
export interface FormulaNames {
  facts: readonly string[];
  parameters: readonly string[];
  roundingModes: readonly string[];
}

/** A problem in a formula's text: what, and where (offsets into the formula, end exclusive). */
export interface FormulaProblem {
  message: string;
  start: number;
  end: number;
}

/** Where in the formula each part of the compiled expression was written, by its path in the json-logic. */
export interface FormulaSpan {
  path: (string | number)[];
  start: number;
  end: number;
}

export interface ParsedFormula {
  /** The json-logic expression; absent when the formula has problems. */
  expression?: unknown;
  spans: FormulaSpan[];
  problems: FormulaProblem[];
}

/** A parsed part: its json-logic, where it was written, and its parts in json-logic operand order. */
interface Part {
  logic: unknown;
  start: number;
  end: number;
  operands: Part[];
  /** For `let`: each binding with where it was written. */
  bindings?: { name: string; start: number; value: Part }[];
  /** A number written as such, which a minus sign right before it makes negative. */
  literal?: boolean;
  /** Written inside parentheses, so never merged with the operation around it. */
  parenthesized?: boolean;
  /** Operations inside one another down to its deepest value (a name or a number is 0). */
  height: number;
}

class SyntaxProblem extends Error {
  constructor(readonly problem: FormulaProblem) {
    super(problem.message);
  }
}

const INFIX_BY_SPELLING = new Map(INFIX_OPERATORS.flatMap((infix) => [infix.symbol, ...infix.spellings].map((spelling) => [spelling, infix] as const)));
/** Deeper than any formula a person writes; past it the parser, and everything that reads the expression, would run out of stack. */
const MAX_DEPTH = PACK_LIMITS.expressionLevels;
const TOO_DEEP = `the formula nests more than ${MAX_DEPTH} levels deep; give parts of it names with \`let\``;
/** Problems in one formula that get a "did you mean"; any more are reported without one. */
const HINTED_PROBLEMS = 20;
/** Problems reported for one formula; past them, one more says how many were not. */
const REPORTED_PROBLEMS = 50;
const VALUE_START = 'a value (a number, a name, text in double quotes, `(`, `if`, `let` or `not`)';

/**
 * Parses a formula into the json-logic expression the engine compiles. Names resolve against the
 * rule: `let` values first, then required facts, then parameters. Returns every unknown name, or
 * the first syntax error, each with its place in the text.
 */
export function parseFormula(text: string, names: FormulaNames): ParsedFormula {
  const tokens = tokenize(text);
  const problems: FormulaProblem[] = [];
  const lets = new ScopedNames<true>();
  const facts = new Set(names.facts);
  const parameters = new Set(names.parameters);
  const roundingModes = new Set(names.roundingModes);
  let index = 0;

  const peek = (): Token => tokens[Math.min(index, tokens.length - 1)]!;
  const next = (): Token => tokens[Math.min(index++, tokens.length - 1)]!;
  const isWord = (token: Token, word: string) => token.kind === 'name' && token.text === word;
  const isSymbol = (token: Token, ...symbols: string[]) => token.kind === 'symbol' && symbols.includes(token.text);
  const fail = (token: Token, message: string): never => {
    throw new SyntaxProblem({ message, start: token.start, end: Math.max(token.end, token.start + 1) });
  };
  const expected = (what: string, token: Token, hint?: string): never =>
    fail(token, `expected ${what}, found ${describeToken(token)}${hint ?? foreignHint(token) ?? ''}`);
  const expectWord = (word: string, context: string): Token => {
    const token = next();
    if (isWord(token, word)) return token;
    const hint = token.kind === 'name' && suggest(token.text, [word]) ? `; did you mean \`${word}\`?` : undefined;
    return expected(`\`${word}\` ${context}`, token, hint);
  };
  const part = (logic: unknown, start: number, end: number, operands: Part[] = []): Part => {
    const height = operands.length === 0 ? 0 : 1 + Math.max(...operands.map((operand) => operand.height));
    if (height > MAX_DEPTH) throw new SyntaxProblem({ message: TOO_DEEP, start, end: Math.max(end, start + 1) });
    return { logic, start, end, operands, height };
  };
  /** Adds an operand to an operation already made (`a + b` then `+ c`), within the nesting limit. */
  const extend = (operation: Part, operand: Part, at: Token) => {
    if (operand.height + 1 > MAX_DEPTH) fail(at, TOO_DEEP);
    operation.operands.push(operand);
    (operation.logic as Record<string, unknown[]>)[Object.keys(operation.logic as object)[0]!]!.push(operand.logic);
    operation.end = operand.end;
    operation.height = Math.max(operation.height, operand.height + 1);
  };

  let depth = 0;
  const expression = (): Part => {
    const token = peek();
    if (++depth > MAX_DEPTH) fail(token, TOO_DEEP);
    try {
      if (isWord(token, 'let')) return letExpression();
      if (isWord(token, 'if')) return ifExpression();
      return infix(PRECEDENCE.or);
    } finally {
      depth--;
    }
  };

  /** Runs a nested reading, counting it towards the nesting limit. */
  const expressionOr = (read: () => Part): Part => {
    if (++depth > MAX_DEPTH) fail(peek(), TOO_DEEP);
    try {
      return read();
    } finally {
      depth--;
    }
  };

  const letExpression = (): Part => {
    const start = next().start;
    const depth = lets.size;
    const bindings: NonNullable<Part['bindings']> = [];
    for (;;) {
      const nameToken = next();
      if (nameToken.kind !== 'name' || KEYWORDS.includes(nameToken.text)) expected('a name for the value (`let name = …`)', nameToken);
      if (!isSymbol(peek(), '=')) expected(`\`=\` after \`${nameToken.text}\``, peek());
      next();
      const value = expression();
      bindings.push({ name: nameToken.text, start: nameToken.start, value });
      lets.bind(nameToken.text, true);
      if (isSymbol(peek(), ';')) {
        next();
        if (isWord(peek(), 'in')) break;
        continue;
      }
      if (isWord(peek(), 'in')) break;
      expected(`\`;\` before the next value or \`in\` before the result`, peek());
    }
    next();
    const body = expression();
    lets.leave(depth);
    const logic = { let: [Object.fromEntries(bindings.map((binding) => [binding.name, binding.value.logic])), body.logic] };
    // Its height counts the values it names as well as its result: the checker reads them all.
    const made = part(logic, start, body.end, [...bindings.map((binding) => binding.value), body]);
    return { ...made, operands: [body], bindings };
  };

  const ifExpression = (): Part => {
    const start = next().start;
    const operands: Part[] = [];
    for (;;) {
      operands.push(expression());
      expectWord('then', 'after the condition');
      operands.push(expression());
      expectWord('else', 'after the value when true (every `if` has an `else`)');
      if (isWord(peek(), 'if')) {
        next();
        continue;
      }
      operands.push(expression());
      break;
    }
    return part({ if: operands.map((operand) => operand.logic) }, start, operands.at(-1)!.end, operands);
  };

  // Operators of one precedence are read left to right; a run of the same variadic operator is one
  // operation (`a + b + c`), as json-logic writes it.
  const infix = (precedence: number): Part => {
    if (precedence === PRECEDENCE.not) return notExpression();
    if (precedence > PRECEDENCE.product) return negation();
    const tighter = nextPrecedence(precedence);
    let left = infix(tighter);
    let merging: string | undefined;
    for (;;) {
      const operator = infixAt(peek(), precedence);
      if (!operator) return left;
      const operatorToken = next();
      const right = infix(tighter);
      if (operator.precedence === PRECEDENCE.comparison) {
        left = comparison(left, operator, right);
        continue;
      }
      if (operator.variadic && merging === operator.operator) {
        extend(left, right, operatorToken);
      } else {
        // Each `−` of a run works on the result of the one before, so a run nests one level a term.
        if (Math.max(left.height, right.height) + 1 > MAX_DEPTH) {
          fail(operatorToken, operator.operator === '-' ? `${TOO_DEEP}, or subtract one sum: \`a − (b + c + …)\`` : TOO_DEEP);
        }
        left = part({ [operator.operator]: [left.logic, right.logic] }, left.start, right.end, [left, right]);
      }
      merging = operator.operator;
    }
  };

  const comparison = (left: Part, operator: InfixOperator, right: Part): Part => {
    const compared = part({ [operator.operator]: [left.logic, right.logic] }, left.start, right.end, [left, right]);
    const following = peek();
    const again = infixAt(following, PRECEDENCE.comparison);
    if (!again) return compared;
    if (!operator.chains || again.operator !== operator.operator) {
      fail(following, `\`${following.text}\` cannot follow a comparison; join two comparisons with \`and\` (only \`a < b < c\` and \`a ≤ b ≤ c\` chain)`);
    }
    next();
    const third = infix(PRECEDENCE.sum);
    if (infixAt(peek(), PRECEDENCE.comparison)) fail(peek(), 'a chain of comparisons has at most three values (`a < b < c`)');
    extend(compared, third, following);
    return compared;
  };

  const notExpression = (): Part => {
    if (!isWord(peek(), 'not')) return infix(PRECEDENCE.comparison);
    const start = next().start;
    const operand = expressionOr(notExpression);
    return part({ '!': [operand.logic] }, start, operand.end, [operand]);
  };

  const negation = (): Part => {
    if (!isSymbol(peek(), ...MINUS.spellings)) return primary();
    const start = next().start;
    const operand = expressionOr(negation);
    if (operand.literal && !operand.parenthesized && (operand.logic as number) >= 0) {
      return part(-(operand.logic as number), start, operand.end);
    }
    return part({ '-': [operand.logic] }, start, operand.end, [operand]);
  };

  const primary = (): Part => {
    const token = next();
    switch (token.kind) {
      case 'number':
        return { ...part(numberValue(token), token.start, token.end), literal: true };
      case 'string':
        return part(token.text.slice(1, -1), token.start, token.end);
      case 'name':
        return nameOrCall(token);
      case 'symbol':
        if (token.text === '(') {
          const inner = expression();
          const close = next();
          if (!isSymbol(close, ')')) expected(`\`)\` to close the \`(\` that opens \`${snippet(text, token.start)}\``, close);
          if (isSymbol(peek(), '.')) fail(peek(), 'fields can be read only from a name; give the value a name with `let` and read `name.field`');
          return { ...inner, start: token.start, end: close.end, parenthesized: true };
        }
        if (token.text === '.') fail(token, 'a number starts with a digit: write `0.5`, not `.5`');
        if (token.text === "'") fail(token, 'text is written in double quotes: `"weekly"`');
        return expected(VALUE_START, token);
      default:
        if (token.kind === 'bad' && token.text === '"') fail(token, 'this text has no closing `"` on the same line');
        return expected(VALUE_START, token);
    }
  };

  const numberValue = (token: Token): number => {
    const value = Number(token.text);
    if (!new Decimal(token.text).eq(new Decimal(value))) fail(token, 'this number has more digits than can be kept exactly');
    return value;
  };

  const nameOrCall = (token: Token): Part => {
    if (KEYWORDS.includes(token.text)) {
      if (token.text === 'true' || token.text === 'false') return part(token.text === 'true', token.start, token.end);
      if (token.text === 'if' || token.text === 'let') fail(token, `\`${token.text}\` inside a larger expression needs parentheses: \`(${token.text} …)\``);
      return expected(VALUE_START, token);
    }
    if (isSymbol(peek(), '(')) return call(token);
    const [root, ...fields] = token.text.split('.') as [string, ...string[]];
    if (lets.has(root) || facts.has(root)) {
      if (!lets.has(root) && parameters.has(root)) unknown(token, `\`${root}\` names both a required fact and a parameter of this rule; rename one of them`);
      return part({ var: token.text }, token.start, token.end);
    }
    if (parameters.has(root)) {
      if (fields.length > 0) unknown(token, `parameter \`${root}\` has no fields; only facts, \`let\` values and table rows do`);
      return part({ param: root }, token.start, token.end);
    }
    // Finding the nearest known name compares with every one: past a few problems, none is sought.
    unknown(token, unknownNameMessage(root, problems.length < HINTED_PROBLEMS ? [...lets.names(), ...facts, ...parameters] : []));
    return part({ var: token.text }, token.start, token.end);
  };

  const call = (nameToken: Token): Part => {
    const name = nameToken.text;
    const isRounding = !Object.hasOwn(FUNCTIONS, name);
    if (isRounding && !roundingModes.has(name)) {
      const hint = name === 'round'
        ? '; rounding is written with the rounding mode as the function, e.g. `round-to-nearest-cent(amount)`'
        : didYouMean(name, [...Object.keys(FUNCTIONS), ...roundingModes]);
      unknown(nameToken, `\`${name}\` is neither a function (${Object.keys(FUNCTIONS).join(', ')}) nor a rounding mode${hint}`);
    }
    next();
    const operands: Part[] = [];
    if (!isSymbol(peek(), ')')) {
      for (;;) {
        operands.push(expression());
        if (isSymbol(peek(), ',')) {
          next();
          continue;
        }
        if (isSymbol(peek(), ')')) break;
        expected(`\`,\` or \`)\` in the call of \`${name}\``, peek());
      }
    }
    const close = next();
    if (isRounding && !roundingModes.has(name)) return part({ var: name }, nameToken.start, close.end);
    const usage = isRounding ? `${name}(amount)` : FUNCTIONS[name]!.usage;
    const wanted = isRounding ? 1 : FUNCTIONS[name]!.operands;
    if (wanted === 'one or more' ? operands.length === 0 : operands.length !== (typeof wanted === 'number' ? wanted : wanted.length)) {
      fail(nameToken, `\`${name}\` takes ${describeOperands(wanted)}: \`${usage}\`; found ${operands.length}`);
    }
    if (isRounding) {
      const mode = part(name, nameToken.start, nameToken.end);
      return part({ round: [name, operands[0]!.logic] }, nameToken.start, close.end, [mode, operands[0]!]);
    }
    return part({ [name]: operands.map((operand) => operand.logic) }, nameToken.start, close.end, operands);
  };

  let unreported = 0;
  const unknown = (token: Token, message: string) => {
    if (problems.length < REPORTED_PROBLEMS) problems.push({ message, start: token.start, end: token.end });
    else unreported++;
  };

  let root: Part | undefined;
  try {
    root = expression();
    const rest = peek();
    if (rest.kind !== 'end') expected('an operator or the end of the formula', rest);
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    problems.push(error.problem);
  }
  if (unreported > 0) {
    const last = problems.at(-1)!;
    problems.push({ message: `and ${unreported} more unknown ${unreported === 1 ? 'name' : 'names'} in this formula`, start: last.start, end: last.end });
  }
  if (problems.length > 0 || !root) return { spans: [], problems };
  return { expression: root.logic, spans: spansOf(root), problems };
}

/** The infix operator a token spells, if it binds at exactly this precedence. */
function infixAt(token: Token, precedence: number): InfixOperator | undefined {
  if (token.kind !== 'symbol' && token.kind !== 'name') return undefined;
  const operator = INFIX_BY_SPELLING.get(token.text);
  if (!operator || operator.precedence !== precedence) return undefined;
  if (token.kind === 'name' && operator.symbol !== token.text) return undefined;
  return operator;
}

const LEVELS = [PRECEDENCE.or, PRECEDENCE.and, PRECEDENCE.not, PRECEDENCE.comparison, PRECEDENCE.sum, PRECEDENCE.product, PRECEDENCE.negation];

function nextPrecedence(precedence: number): number {
  return LEVELS[LEVELS.indexOf(precedence as (typeof LEVELS)[number]) + 1]!;
}

/** Paths into the json-logic, as the compiler reports them, for every part. */
function spansOf(root: Part): FormulaSpan[] {
  const spans: FormulaSpan[] = [];
  const walk = (part: Part, path: (string | number)[]) => {
    spans.push({ path, start: part.start, end: part.end });
    if (typeof part.logic !== 'object' || part.logic === null) return;
    const operator = Object.keys(part.logic)[0]!;
    if (part.bindings) {
      for (const binding of part.bindings) {
        const bindingPath = [...path, operator, 0, binding.name];
        spans.push({ path: bindingPath, start: binding.start, end: binding.value.end });
        walk(binding.value, bindingPath);
      }
      walk(part.operands[0]!, [...path, operator, 1]);
      return;
    }
    part.operands.forEach((operand, index) => walk(operand, [...path, operator, index]));
  };
  walk(root, []);
  return spans;
}

/** Where a part of the compiled expression was written: the span recorded for the longest prefix of its path. */
export function spanAt(spans: readonly FormulaSpan[], path: readonly (string | number)[]): FormulaSpan | undefined {
  let best: FormulaSpan | undefined;
  for (const span of spans) {
    if (span.path.length > path.length || (best && span.path.length <= best.path.length)) continue;
    if (span.path.every((step, index) => step === path[index])) best = span;
  }
  return best;
}

function describeToken(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the formula';
    case 'name':
      return KEYWORDS.includes(token.text) ? `\`${token.text}\`` : `the name \`${token.text}\``;
    case 'number':
      return `the number \`${token.text}\``;
    case 'string':
      return `the text ${token.text}`;
    default:
      return `\`${token.text}\``;
  }
}

function foreignHint(token: Token): string | undefined {
  if (token.kind === 'name' && token.text === 'x') return '; did you mean `×`?';
  if (token.kind !== 'symbol' && token.kind !== 'bad') return undefined;
  if (token.text === '^' || token.text === '**') return '; formulas have no power operator: multiply';
  const instead = Object.hasOwn(FOREIGN_SYMBOLS, token.text) ? FOREIGN_SYMBOLS[token.text] : undefined;
  return instead ? `; did you mean \`${instead}\`?` : undefined;
}

function unknownNameMessage(name: string, known: readonly string[]): string {
  const base = `\`${name}\` is not a required fact, parameter or \`let\` value of this rule`;
  // `a-b` reads as one name; if its first word is known, the writer most likely meant to subtract.
  const words = name.split('-');
  for (let split = 1; split < words.length; split++) {
    const left = words.slice(0, split).join('-');
    if (known.includes(left)) return `${base}; did you mean \`${left} - ${words.slice(split).join('-')}\`? (put a space on each side of \`-\` to subtract)`;
  }
  const hint = didYouMean(name, known);
  return `${base}${hint || '; add it to requires or parameters'}`;
}

function didYouMean(name: string, known: readonly string[]): string {
  const nearest = suggest(name, known);
  return nearest === undefined ? '' : `; did you mean \`${nearest}\`?`;
}

function describeOperands(wanted: readonly string[] | 'one or more' | number): string {
  if (wanted === 'one or more') return 'one or more values';
  if (typeof wanted === 'number') return 'one amount';
  return `${wanted.length} values (${wanted.join(', ')})`;
}

/** The start of the text at an offset, on one line, to point back at an earlier token. */
function snippet(text: string, offset: number): string {
  const rest = text.slice(offset).replace(/\s+/g, ' ');
  return rest.length > 24 ? `${rest.slice(0, 24)}…` : rest;
}
