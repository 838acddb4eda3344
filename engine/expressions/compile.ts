import jsonLogic from 'json-logic-js';
import { compareDecimals, Decimal, isDecimal } from '../money/decimal.ts';
import { roundingFunction, type RoundingMode } from '../money/rounding.ts';
import type { TableSpec, ValueUnit } from '../model/pack.ts';
import { suggest } from '../model/suggest.ts';
import { PACK_LIMITS } from '../model/limits.ts';
import { renderFormula } from './formula-render.ts';
import { ScopedNames } from './scoped-names.ts';
import { spellingOf } from './formula-syntax.ts';
import { EvaluationFailure, RowValue, TableValue, type Scope, type TableRow, type Value } from './values.ts';

/** What the checker knows about a value before any request arrives. */
export type StaticType =
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'string'; options?: readonly string[] }
  | { kind: 'record'; fields: Readonly<Record<string, StaticType>> }
  | { kind: 'table'; parameters: readonly string[]; spec: TableSpec }
  | { kind: 'row'; parameters: readonly string[]; columns: Readonly<Record<string, ValueUnit>> }
  /** Where a problem was already reported: fits anywhere, so one mistake gives one diagnostic. */
  | { kind: 'unknown' };

/** Names an expression may read: the rule's required facts and declared parameters, by position. */
export interface CompileEnvironment {
  facts: ReadonlyMap<string, { index: number; type: StaticType }>;
  parameters: ReadonlyMap<string, { index: number; type: StaticType }>;
  roundingModes: ReadonlyMap<string, RoundingMode>;
}

/** A problem in an expression, with the path inside the expression where it is. */
export interface ExpressionProblem {
  message: string;
  path: (string | number)[];
}

export type Evaluator = (scope: Scope) => Value;

export interface CompiledExpression {
  evaluate: Evaluator;
  type: StaticType;
  /** The expression as formula text, on one line. */
  formula: string;
  /** How many `let` slots one evaluation needs. */
  letCount: number;
  /** The name bound in each `let` slot, for traces. */
  letNames: string[];
}

interface Node {
  evaluate: Evaluator;
  type: StaticType;
  /** The json-logic it was compiled from, to name it in messages. */
  source: unknown;
  /** For a `round`: the amount it rounds and the rounding, so a `let` can keep the amount before rounding. */
  rounds?: { amount: Evaluator; apply: (amount: Decimal) => Decimal };
}

const NUMBER: StaticType = { kind: 'number' };
const BOOLEAN: StaticType = { kind: 'boolean' };
const STRING: StaticType = { kind: 'string' };
const UNKNOWN: StaticType = { kind: 'unknown' };

/** Same kind, or one side already failed. */
function fits(actual: StaticType, expected: StaticType['kind']): boolean {
  return actual.kind === expected || actual.kind === 'unknown';
}

/** The operators an expression may use, with what each takes. Anything else is a diagnostic at load. */
export const OPERATORS: Readonly<Record<string, string>> = {
  var: 'reads a required fact (or a field of it, `grossPay.period`) or a `let` name',
  param: 'reads a declared parameter by id',
  let: '[{name: expression, ...}, body]: names intermediate values, in order',
  if: '[condition, then, (condition, then)..., else]',
  and: 'true when every operand is true',
  or: 'true when any operand is true',
  '!': 'negation of a boolean',
  '===': 'strict equality of two values of the same type',
  '!==': 'strict inequality of two values of the same type',
  '<': 'a < b, or a < b < c',
  '<=': 'a <= b, or a <= b <= c',
  '>': 'a > b',
  '>=': 'a >= b',
  '+': 'exact decimal sum',
  '-': 'exact decimal difference (or negation with one operand)',
  '*': 'exact decimal product',
  '/': 'decimal quotient (40 significant digits)',
  '%': 'remainder',
  min: 'smallest operand',
  max: 'largest operand',
  round: '[mode, amount]: applies a named rounding mode to an amount in cents',
  bracket: '[table, amount]: the row of a bracket table that applies to the amount',
  progressive: '[table, amount]: the amount due under a marginal-rate (`from`) table',
};

const HINTS: Readonly<Record<string, string>> = {
  '==': 'use `===` (comparisons are strict)',
  '!=': 'use `!==` (comparisons are strict)',
  '?:': 'use `if`',
  '!!': 'compare explicitly with `===`',
};

/**
 * Compiles a json-logic expression into a closure over the engine's own operator table,
 * checking every operator, name and type once, at load.
 */
export function compileExpression(
  expression: unknown,
  environment: CompileEnvironment,
): { compiled?: CompiledExpression; problems: ExpressionProblem[] } {
  const problems: ExpressionProblem[] = [];
  const lets = new ScopedNames<{ slot: number; type: StaticType }>();
  const letNames: string[] = [];

  let unreported = 0;
  const fail = (path: (string | number)[], message: string): Node => {
    if (problems.length < REPORTED_PROBLEMS) problems.push({ message, path });
    else unreported++;
    return { evaluate: () => null, type: UNKNOWN, source: null };
  };
  // Finding the nearest known name compares with every one: past a few problems, none is sought.
  const suggestion = (name: string, known: readonly string[]) => (problems.length < HINTED_PROBLEMS ? nearestName(name, known) : undefined);

  let depth = 0;
  const compile = (node: unknown, path: (string | number)[]): Node => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return compileOperand(node, path);
    // An expression deeper than this is refused: compiling, rendering and evaluating it all recurse.
    // (The innermost object may be a `var` or `param`, which reads a value and nests nothing.)
    if (depth > PACK_LIMITS.expressionLevels) {
      return fail(path, `the expression nests more than ${PACK_LIMITS.expressionLevels} operations deep; give parts of it names with \`let\``);
    }
    depth++;
    try {
      return compileNode(node, path);
    } finally {
      depth--;
    }
  };

  const compileOperand = (node: unknown, path: (string | number)[]): Node => {
    if (typeof node === 'number') {
      const value = new Decimal(String(node));
      return { evaluate: () => value, type: NUMBER, source: node };
    }
    if (typeof node === 'boolean') return { evaluate: () => node, type: BOOLEAN, source: node };
    if (typeof node === 'string') return { evaluate: () => node, type: { kind: 'string', options: [node] }, source: node };
    if (node === null || Array.isArray(node)) {
      return fail(path, node === null ? 'null is not a value here' : 'a list is only allowed as the operands of an operator');
    }
    return fail(path, 'an operation must be an object with exactly one key, the operator');
  };

  const compileNode = (node: object, path: (string | number)[]): Node => {
    if (!jsonLogic.is_logic(node as never)) {
      return fail(path, 'an operation must be an object with exactly one key, the operator');
    }
    const operator = jsonLogic.get_operator(node as never);
    const rawArgs = (node as Record<string, unknown>)[operator];
    const args = Array.isArray(rawArgs) ? rawArgs : [rawArgs];
    const argPath = (index: number) => (Array.isArray(rawArgs) ? [...path, operator, index] : [...path, operator]);
    if (!Object.hasOwn(OPERATORS, operator)) {
      const hint = (Object.hasOwn(HINTS, operator) ? HINTS[operator] : undefined) ?? suggestion(operator, Object.keys(OPERATORS));
      return fail(path, `unknown operator \`${operator}\`${hint ? `; ${hint}` : ''}`);
    }
    switch (operator) {
      case 'var':
        return compileVar(args, argPath(0), [...path, operator]);
      case 'param':
        return compileParam(args, argPath(0), [...path, operator]);
      case 'let':
        return compileLet(args, path, operator);
      case 'round':
        return compileRound(args, argPath, [...path, operator]);
      default: {
        const operands = args.map((arg, index) => compile(arg, argPath(index)));
        return { ...compileOperation(operator, operands, [...path, operator], fail), source: node };
      }
    }
  };

  const compileVar = (args: unknown[], namePath: (string | number)[], opPath: (string | number)[]): Node => {
    if (args.length !== 1 || typeof args[0] !== 'string') return fail(opPath, '`var` takes one name and no default');
    const [root, ...fields] = args[0].split('.');
    const bound = lets.lookup(root!);
    const fact = bound ? undefined : environment.facts.get(root!);
    if (!bound && !fact) {
      const known = [...environment.facts.keys(), ...lets.names()];
      const hint = suggestion(root!, known);
      return fail(namePath, `\`${root}\` is not a required fact of this rule${hint ? `; ${hint}` : ''}; add it to requires`);
    }
    let type = (bound ?? fact)!.type;
    const steps: string[] = [];
    for (const field of fields) {
      if (type.kind === 'unknown') break;
      if (type.kind === 'record' && Object.hasOwn(type.fields, field)) {
        type = type.fields[field]!;
      } else if (type.kind === 'row' && Object.hasOwn(type.columns, field)) {
        type = type.columns[field] === 'boolean' ? BOOLEAN : NUMBER;
      } else {
        const known = type.kind === 'record' ? Object.keys(type.fields) : type.kind === 'row' ? Object.keys(type.columns) : [];
        const hint = suggestion(field, known);
        return fail(namePath, `\`${args[0]}\` has no field \`${field}\`${hint ? `; ${hint}` : ''}`);
      }
      steps.push(field);
    }
    const read = bound
      ? ((slot) => (scope: Scope) => scope.lets[slot]!)(bound.slot)
      : ((index) => (scope: Scope) => scope.facts[index]!)(fact!.index);
    const evaluate = steps.length === 0 ? read : (scope: Scope) => steps.reduce(readField, read(scope));
    return { evaluate, type, source: { var: args[0] } };
  };

  const compileParam = (args: unknown[], namePath: (string | number)[], opPath: (string | number)[]): Node => {
    if (args.length !== 1 || typeof args[0] !== 'string') return fail(opPath, '`param` takes one parameter id');
    const parameter = environment.parameters.get(args[0]);
    if (!parameter) {
      const hint = suggestion(args[0], [...environment.parameters.keys()]);
      return fail(namePath, `\`${args[0]}\` is not a declared parameter of this rule${hint ? `; ${hint}` : ''}; add it to parameters`);
    }
    const index = parameter.index;
    const evaluate = (scope: Scope): Value => {
      const resolved = scope.parameters[index]!;
      if (!(resolved.value instanceof TableValue)) scope.reads.push({ parameterIndex: index });
      return resolved.value;
    };
    return { evaluate, type: parameter.type, source: { param: args[0] } };
  };

  const compileLet = (args: unknown[], path: (string | number)[], operator: string): Node => {
    const [bindings, body] = args;
    if (args.length !== 2 || typeof bindings !== 'object' || bindings === null || Array.isArray(bindings)) {
      return fail([...path, operator], '`let` takes [{name: expression, ...}, body]');
    }
    const depth = lets.size;
    const steps: { slot: number; evaluate: Evaluator }[] = [];
    for (const [name, valueExpression] of Object.entries(bindings)) {
      const bindingPath = [...path, operator, 0, name];
      if (!/^[a-z][A-Za-z0-9]*$/.test(name)) {
        fail(bindingPath, `\`let\` names are camelCase words; \`${name}\` is not`);
        continue;
      }
      if (environment.facts.has(name)) fail(bindingPath, `\`let\` name \`${name}\` hides a required fact; choose another name`);
      const value = compile(valueExpression, bindingPath);
      const slot = letNames.length;
      letNames.push(name);
      lets.bind(name, { slot, type: value.type });
      steps.push({ slot, evaluate: value.rounds ? keepingBeforeRounding(slot, value.rounds, value.evaluate) : value.evaluate });
    }
    const result = compile(body, [...path, operator, 1]);
    lets.leave(depth);
    const evaluate = (scope: Scope): Value => {
      for (const step of steps) scope.lets[step.slot] = step.evaluate(scope);
      return result.evaluate(scope);
    };
    return { evaluate, type: result.type, source: { [operator]: args } };
  };

  const compileRound = (args: unknown[], argPath: (index: number) => (string | number)[], opPath: (string | number)[]): Node => {
    if (args.length !== 2 || typeof args[0] !== 'string') return fail(opPath, '`round` takes [mode, amount]');
    const mode = environment.roundingModes.get(args[0]);
    if (!mode) {
      const hint = suggestion(args[0], [...environment.roundingModes.keys()]);
      return fail(argPath(0), `unknown rounding mode \`${args[0]}\`${hint ? `; ${hint}` : ''}`);
    }
    const amount = compile(args[1], argPath(1));
    expectType(amount, NUMBER, argPath(1));
    const apply = roundingFunction(mode);
    const rounds = { amount: amount.evaluate, apply };
    return { evaluate: (scope) => apply(amount.evaluate(scope) as Decimal), type: NUMBER, source: { round: args }, rounds };
  };

  const expectType = (node: Node, expected: StaticType, path: (string | number)[]) => {
    if (!fits(node.type, expected.kind)) fail(path, `expected ${describe(expected)}, found ${describe(node.type)}`);
  };

  const root = compile(expression, []);
  if (unreported > 0) problems.push({ message: `and ${unreported} more ${unreported === 1 ? 'problem' : 'problems'} in this expression`, path: [] });
  if (problems.length > 0) return { problems };
  return { compiled: { evaluate: root.evaluate, type: root.type, formula: renderFormula(expression), letCount: letNames.length, letNames }, problems };
}

function readField(value: Value, field: string): Value {
  if (value instanceof RowValue) return value.row.cells[field] ?? null;
  return (value as Record<string, Value>)[field] ?? null;
}

function compileOperation(
  operator: string,
  operands: Node[],
  path: (string | number)[],
  fail: (path: (string | number)[], message: string) => Node,
): Omit<Node, 'source'> {
  const count = operands.length;
  const spelling = spellingOf(operator);
  const need = (ok: boolean, what: string) => (ok ? undefined : fail(path, `\`${spelling}\` takes ${what}`));
  const allOf = (kind: StaticType['kind'], what: string) =>
    operands.every((operand) => fits(operand.type, kind)) ? undefined : fail(path, `\`${spelling}\` takes ${what}`);
  const numbers = (scope: Scope) => operands.map((operand) => asNumber(operand.evaluate(scope), operator));

  switch (operator) {
    case 'if': {
      const problem = need(count >= 3 && count % 2 === 1, '[condition, then, (condition, then)..., else]');
      if (problem) return problem;
      for (let index = 0; index + 1 < count; index += 2) {
        if (!fits(operands[index]!.type, 'boolean')) return fail([...path, index], 'an `if` condition must be true or false');
      }
      const branches = operands.map((operand, index) => ({ operand, index })).filter(({ index }) => index % 2 === 1 || index === count - 1);
      const resultType = branches.find(({ operand }) => operand.type.kind !== 'unknown')?.operand.type ?? UNKNOWN;
      for (const { operand, index } of branches) {
        if (!fits(operand.type, resultType.kind)) return fail([...path, index], `every branch of \`if\` must give ${describe(resultType)}`);
      }
      const known = branches.map(({ operand }) => operand.type).filter((type) => type.kind !== 'unknown');
      const type = known.length === branches.length ? mergeTypes(known) : resultType;
      const evaluate = (scope: Scope): Value => {
        for (let index = 0; index + 1 < count; index += 2) {
          if (operands[index]!.evaluate(scope) === true) return operands[index + 1]!.evaluate(scope);
        }
        return operands[count - 1]!.evaluate(scope);
      };
      return { evaluate, type };
    }
    case 'and':
    case 'or': {
      const problem = need(count >= 2, 'two or more operands') ?? allOf('boolean', 'only true or false operands');
      if (problem) return problem;
      const isAnd = operator === 'and';
      const evaluate = (scope: Scope): Value => {
        for (const operand of operands) if ((operand.evaluate(scope) === true) !== isAnd) return !isAnd;
        return isAnd;
      };
      return { evaluate, type: BOOLEAN };
    }
    case '!': {
      const problem = need(count === 1, 'one operand') ?? allOf('boolean', 'a true or false operand');
      if (problem) return problem;
      const [operand] = operands as [Node];
      return { evaluate: (scope) => operand.evaluate(scope) !== true, type: BOOLEAN };
    }
    case '===':
    case '!==': {
      const problem = need(count === 2, 'two operands');
      if (problem) return problem;
      const [left, right] = operands as [Node, Node];
      if (left.type.kind !== right.type.kind && left.type.kind !== 'unknown' && right.type.kind !== 'unknown') return fail(path, `\`${spelling}\` compares values of the same type; found ${describe(left.type)} and ${describe(right.type)}`);
      const optionProblem = checkOptions(left, right) ?? checkOptions(right, left);
      if (optionProblem) return fail(path, optionProblem);
      const equal = operator === '===';
      const evaluate = (scope: Scope): Value => {
        const a = left.evaluate(scope);
        const b = right.evaluate(scope);
        const same = isDecimal(a) && isDecimal(b) ? compareDecimals(a, b) === 0 : a === b;
        return same === equal;
      };
      return { evaluate, type: BOOLEAN };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const between = operator === '<' || operator === '<=';
      const problem = need(count === 2 || (between && count === 3), between ? 'two or three numbers' : 'two numbers') ?? allOf('number', 'numbers');
      if (problem) return problem;
      const test = { '<': (order: number) => order < 0, '<=': (order: number) => order <= 0, '>': (order: number) => order > 0, '>=': (order: number) => order >= 0 }[operator];
      const evaluate = (scope: Scope): Value => {
        const values = numbers(scope);
        for (let index = 0; index + 1 < values.length; index++) if (!test(compareDecimals(values[index]!, values[index + 1]!))) return false;
        return true;
      };
      return { evaluate, type: BOOLEAN };
    }
    case '+':
    case '*': {
      const problem = need(count >= 1, 'one or more numbers') ?? allOf('number', 'numbers');
      if (problem) return problem;
      const isSum = operator === '+';
      const evaluate = (scope: Scope): Value => {
        let total = asNumber(operands[0]!.evaluate(scope), operator);
        for (let index = 1; index < count; index++) {
          const next = asNumber(operands[index]!.evaluate(scope), operator);
          total = isSum ? total.add(next) : total.mul(next);
        }
        return total;
      };
      return { evaluate, type: NUMBER };
    }
    case '-': {
      const problem = need(count === 1 || count === 2, 'one or two numbers') ?? allOf('number', 'numbers');
      if (problem) return problem;
      if (count === 1) {
        const [operand] = operands as [Node];
        return { evaluate: (scope) => asNumber(operand.evaluate(scope), operator).neg(), type: NUMBER };
      }
      const [left, right] = operands as [Node, Node];
      const evaluate = (scope: Scope): Value => asNumber(left.evaluate(scope), operator).sub(asNumber(right.evaluate(scope), operator));
      return { evaluate, type: NUMBER };
    }
    case '/':
    case '%': {
      const problem = need(count === 2, 'two numbers') ?? allOf('number', 'numbers');
      if (problem) return problem;
      const [left, right] = operands as [Node, Node];
      const isDivision = operator === '/';
      const evaluate = (scope: Scope): Value => {
        const divisor = asNumber(right.evaluate(scope), operator);
        if (divisor.isZero()) throw new EvaluationFailure(`division by zero in \`${operator}\``);
        const dividend = asNumber(left.evaluate(scope), operator);
        return isDivision ? dividend.div(divisor) : dividend.mod(divisor);
      };
      return { evaluate, type: NUMBER };
    }
    case 'min':
    case 'max': {
      const problem = need(count >= 1, 'one or more numbers') ?? allOf('number', 'numbers');
      if (problem) return problem;
      const isMin = operator === 'min';
      const evaluate = (scope: Scope): Value => {
        let best = asNumber(operands[0]!.evaluate(scope), operator);
        for (let index = 1; index < count; index++) {
          const next = asNumber(operands[index]!.evaluate(scope), operator);
          if (isMin ? compareDecimals(next, best) < 0 : compareDecimals(next, best) > 0) best = next;
        }
        return best;
      };
      return { evaluate, type: NUMBER };
    }
    case 'bracket':
    case 'progressive': {
      const problem = need(count === 2, '[table, amount]');
      if (problem) return problem;
      const [table, amount] = operands as [Node, Node];
      if (table.type.kind === 'unknown' || amount.type.kind === 'unknown') return { evaluate: () => null, type: UNKNOWN };
      if (table.type.kind !== 'table') return fail([...path, 0], `\`${operator}\` needs a bracket-table parameter as its first operand`);
      if (amount.type.kind !== 'number') return fail([...path, 1], `\`${operator}\` needs an amount as its second operand`);
      const tableType = table.type;
      if (operator === 'bracket') {
        const evaluate = (scope: Scope): Value => {
          const value = table.evaluate(scope) as TableValue;
          const row = matchRow(value, asNumber(amount.evaluate(scope), operator));
          scope.reads.push({ parameterIndex: value.parameterIndex, row });
          return new RowValue(value, row);
        };
        return { evaluate, type: { kind: 'row', parameters: tableType.parameters, columns: tableType.spec.columns } };
      }
      if (tableType.spec.bound !== 'from' || tableType.spec.columns.rate !== 'ratio') {
        return fail([...path, 0], '`progressive` needs a table whose rows start `from` a bound and have a `rate` ratio column');
      }
      const evaluate = (scope: Scope): Value => {
        const value = table.evaluate(scope) as TableValue;
        const base = asNumber(amount.evaluate(scope), operator);
        const row = matchRow(value, base);
        scope.reads.push({ parameterIndex: value.parameterIndex, row });
        return row.amountBelow!.add((row.cells.rate as Decimal).mul(base.sub(row.bound!)));
      };
      return { evaluate, type: NUMBER };
    }
  }
  return fail(path, `\`${operator}\` is not implemented`);
}

/** Finds the row that applies to an amount: the first whose bound admits it, or for `from` tables the last row started. */
export function matchRow(table: TableValue, amount: Decimal): TableRow {
  const rows = table.rows;
  if (table.spec.bound === 'from') {
    for (let index = rows.length - 1; index >= 0; index--) if (compareDecimals(amount, rows[index]!.bound!) >= 0) return rows[index]!;
    throw new EvaluationFailure('the amount is below the first row of a marginal-rate table');
  }
  const inclusive = table.spec.bound === 'upTo';
  for (const row of rows) {
    if (row.bound === null || (inclusive ? compareDecimals(amount, row.bound) <= 0 : compareDecimals(amount, row.bound) < 0)) return row;
  }
  throw new EvaluationFailure('no row of a bracket table applies to the amount');
}

function asNumber(value: Value, operator: string): Decimal {
  if (isDecimal(value)) return value;
  throw new EvaluationFailure(`\`${operator}\` received something that is not a number`);
}

function mergeTypes(types: StaticType[]): StaticType {
  const first = types[0]!;
  if (first.kind === 'table') {
    const tables = types as Extract<StaticType, { kind: 'table' }>[];
    return { kind: 'table', spec: first.spec, parameters: tables.flatMap((type) => type.parameters) };
  }
  if (first.kind === 'string') {
    const strings = types as Extract<StaticType, { kind: 'string' }>[];
    if (strings.some((type) => !type.options)) return STRING;
    return { kind: 'string', options: strings.flatMap((type) => type.options!) };
  }
  return first;
}

/** A literal compared with a selection fact must be one of the selection's options. */
function checkOptions(variable: Node, literal: Node): string | undefined {
  if (variable.type.kind !== 'string' || literal.type.kind !== 'string') return undefined;
  if (typeof variable.source === 'string' || typeof literal.source !== 'string') return undefined;
  const options = variable.type.options;
  const value = literal.type.options?.[0];
  if (!options || value === undefined || options.includes(value)) return undefined;
  const hint = nearestName(value, options);
  return `\`${renderFormula(variable.source)}\` is never ${JSON.stringify(value)}; it is one of ${options.join(', ')}${hint ? ` (${hint})` : ''}`;
}

function describe(type: StaticType): string {
  switch (type.kind) {
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'string':
      return 'a text value';
    case 'record':
      return 'a record';
    case 'table':
      return 'a bracket table';
    case 'row':
      return 'a table row';
    case 'unknown':
      return 'a value';
  }
}

/** Problems in one expression that get a "did you mean"; any more are reported without one. */
const HINTED_PROBLEMS = 20;
/** Problems reported for one expression; past them, one more says how many were not. */
const REPORTED_PROBLEMS = 50;

function nearestName(name: string, known: readonly string[]): string | undefined {
  const nearest = suggest(name, known);
  return nearest === undefined ? undefined : `did you mean \`${nearest}\`?`;
}

/**
 * A rounded `let` value that, when the run asks for it, also keeps the amount before rounding: a
 * reviewer checks a rule's "no preliminary rounding" against it. Otherwise it is the plain evaluator.
 */
function keepingBeforeRounding(slot: number, rounds: NonNullable<Node['rounds']>, plain: Evaluator): Evaluator {
  return (scope) => {
    if (!scope.letsBeforeRounding) return plain(scope);
    const amount = rounds.amount(scope) as Decimal;
    scope.letsBeforeRounding[slot] = amount;
    return rounds.apply(amount);
  };
}
