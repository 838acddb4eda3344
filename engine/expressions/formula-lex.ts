/** One word, number, text or symbol of a formula, with where it was written (offsets into the formula). */
export interface Token {
  kind: 'number' | 'string' | 'name' | 'symbol' | 'bad' | 'end';
  text: string;
  start: number;
  end: number;
}

// Longest first, so that `<=` is one token and not `<` then `=`.
const SYMBOLS = [
  '===', '!==',
  '<=', '>=', '!=', '==', '<>', '=<', '=>', '&&', '||', '**',
  '≤', '≥', '≠', '×', '÷', '−', '+', '-', '*', '/', '=', '<', '>', '(', ')', ',', ';', '.',
  '!', '%', '^', '·', '?', ':', '&', '|', "'",
];

// A name is words joined by `-` with no spaces (parameter ids such as `withholding-scale-2`), then
// any fields (`grossPay.period`). Subtraction therefore needs a space on each side of an ASCII `-`.
const WORD = String.raw`[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9]+)*`;
const NAME = new RegExp(String.raw`${WORD}(?:\.${WORD})*`, 'y');
const NUMBER = /\d+(?:\.\d+)?/y;
const STRING = /"[^"\\\n]*"/y;
const SPACE = /\s+/y;

/** Splits a formula into tokens; anything it cannot read becomes a `bad` token for the parser to report. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = position;
    return pattern.exec(text)?.[0];
  };
  while (position < text.length) {
    const space = match(SPACE);
    if (space) {
      position += space.length;
      continue;
    }
    const push = (kind: Token['kind'], length: number) => {
      tokens.push({ kind, text: text.slice(position, position + length), start: position, end: position + length });
      position += length;
    };
    const number = match(NUMBER);
    if (number) {
      push('number', number.length);
      continue;
    }
    const name = match(NAME);
    if (name) {
      push('name', name.length);
      continue;
    }
    if (text[position] === '"') {
      const string = match(STRING);
      push(string ? 'string' : 'bad', string ? string.length : 1);
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, position));
    if (symbol) {
      push('symbol', symbol.length);
      continue;
    }
    push('bad', String.fromCodePoint(text.codePointAt(position)!).length);
  }
  tokens.push({ kind: 'end', text: '', start: text.length, end: text.length });
  return tokens;
}
