/**
 * The written form of formulas, shared by the parser and the renderer so that they cannot disagree:
 * which json-logic operator each symbol stands for, how tightly each binds, and the words the
 * language reserves.
 */

/** Binding strength of each form, loosest first; a part binding less tightly than its place needs parentheses. */
export const PRECEDENCE = {
  /** `let … in …` and `if … then … else …`: they reach as far right as they can. */
  open: 10,
  or: 30,
  and: 40,
  not: 45,
  comparison: 50,
  sum: 60,
  product: 70,
  negation: 90,
  atom: 100,
} as const;

export interface InfixOperator {
  /** The json-logic operator it compiles to. */
  operator: string;
  /** How the renderer writes it. */
  symbol: string;
  /** Other ways an analyst may type it (ASCII). */
  spellings: readonly string[];
  precedence: number;
  /** Takes any number of operands (`a + b + c` is one operation). */
  variadic?: boolean;
  /** May be chained once (`a < b < c`), as json-logic allows. */
  chains?: boolean;
}

/** Every infix operator of the language. */
export const INFIX_OPERATORS: readonly InfixOperator[] = [
  { operator: 'or', symbol: 'or', spellings: [], precedence: PRECEDENCE.or, variadic: true },
  { operator: 'and', symbol: 'and', spellings: [], precedence: PRECEDENCE.and, variadic: true },
  { operator: '===', symbol: '=', spellings: [], precedence: PRECEDENCE.comparison },
  { operator: '!==', symbol: '≠', spellings: ['!='], precedence: PRECEDENCE.comparison },
  { operator: '<', symbol: '<', spellings: [], precedence: PRECEDENCE.comparison, chains: true },
  { operator: '<=', symbol: '≤', spellings: ['<='], precedence: PRECEDENCE.comparison, chains: true },
  { operator: '>', symbol: '>', spellings: [], precedence: PRECEDENCE.comparison },
  { operator: '>=', symbol: '≥', spellings: ['>='], precedence: PRECEDENCE.comparison },
  { operator: '+', symbol: '+', spellings: [], precedence: PRECEDENCE.sum, variadic: true },
  { operator: '-', symbol: '−', spellings: ['-'], precedence: PRECEDENCE.sum },
  { operator: '*', symbol: '×', spellings: ['*'], precedence: PRECEDENCE.product, variadic: true },
  { operator: '/', symbol: '÷', spellings: ['/'], precedence: PRECEDENCE.product },
  { operator: '%', symbol: 'mod', spellings: [], precedence: PRECEDENCE.product },
];

/** The minus sign as the renderer writes it, and every way it may be typed. */
export const MINUS = { symbol: '−', spellings: ['−', '-'] } as const;

/** Functions with a fixed name; any other name called like a function is a rounding mode. */
export const FUNCTIONS: Readonly<Record<string, { operands: readonly string[] | 'one or more'; usage: string }>> = {
  min: { operands: 'one or more', usage: 'min(a, b, …)' },
  max: { operands: 'one or more', usage: 'max(a, b, …)' },
  bracket: { operands: ['table', 'amount'], usage: 'bracket(table, amount)' },
  progressive: { operands: ['table', 'amount'], usage: 'progressive(table, amount)' },
};

/** Words that are part of the language and cannot name a fact, a parameter or a `let` value. */
export const KEYWORDS: readonly string[] = ['let', 'in', 'if', 'then', 'else', 'and', 'or', 'not', 'mod', 'true', 'false'];

/** Symbols from other languages that are not part of this one, with what to write instead. */
export const FOREIGN_SYMBOLS: Readonly<Record<string, string>> = {
  '==': '=',
  '===': '=',
  '!==': '≠',
  '<>': '≠',
  '=<': '≤',
  '=>': '≥',
  '&&': 'and',
  '&': 'and',
  '||': 'or',
  '|': 'or',
  '!': 'not',
  '%': 'mod',
  '·': '×',
  "'": '"',
  '?': 'if … then … else …',
  ':': 'if … then … else …',
};

/** How a formula writes a json-logic operator, to name it in messages. */
export function spellingOf(operator: string): string {
  if (operator === '!') return 'not';
  return INFIX_OPERATORS.find((infix) => infix.operator === operator)?.symbol ?? operator;
}
