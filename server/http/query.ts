import type { ValidateFunction } from 'ajv/dist/2020.js';
import type Koa from 'koa';
import type { InputIssue, JsonSchema } from '../../engine/index.ts';
import { ApiProblem } from '../contract/errors.ts';
import type { QueryParameter } from '../contract/parameters.ts';

/** A query string problem: which parameter, and which rule it broke (never the value). */
export interface QueryProblem {
  name: string;
  message: string;
}

/**
 * The most a query string may hold: longer than any the routes need (their longest value, a search
 * term of 100 characters, is at most 1,200 characters percent-encoded), small enough that refusing
 * one costs no more than any other small request.
 */
export const QUERY_LIMITS = { characters: 2048, parameters: 16 } as const;

/** Where a parsed query carries why it was refused unread, for each route to answer in its own error shape. */
const REFUSED = Symbol('query refused');

/** A query string as the routes see it: each name with its value, or its values when given more than once. */
export type ParsedQuery = Record<string, string | string[] | undefined> & { [REFUSED]?: QueryProblem };

const OVERSIZED: QueryProblem = {
  name: '',
  message: `The query string is too large; a query may have at most ${QUERY_LIMITS.characters.toLocaleString('en-AU')} characters and ${QUERY_LIMITS.parameters} parameters.`,
};

/**
 * Parses a query string, in time linear in its length, for every route: Koa's `ctx.query` reads
 * queries here (see app.ts). A query over QUERY_LIMITS is not parsed at all: it comes back empty,
 * carrying the problem that each route's query checker answers.
 */
export function parseQuery(search: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null) as ParsedQuery;
  if (search === '') return query;
  if (isOversizedQuery(search)) {
    query[REFUSED] = OVERSIZED;
    return query;
  }
  for (const [name, value] of new URLSearchParams(search)) {
    const earlier = query[name];
    if (earlier === undefined) query[name] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else query[name] = [earlier, value];
  }
  return query;
}

/** Whether a query string is over QUERY_LIMITS: looked at no further than the bound. */
export function isOversizedQuery(search: string): boolean {
  return search.length > QUERY_LIMITS.characters || parameterCount(search) > QUERY_LIMITS.parameters;
}

/** Makes a Koa application's `ctx.query` read each request's query with parseQuery, once, instead of Koa's own parser. */
export function parseKoaQueries(app: Koa): void {
  // Kept on the request itself: a long-lived WeakMap that gains an entry per request is traced by
  // every young-generation collection (bench/README.md, "Figures behind the code").
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    get(this: Koa.Request & { [PARSED]?: ParsedQuery }): ParsedQuery {
      return (this[PARSED] ??= parseQuery(this.querystring));
    },
  });
}

/** Where a Koa request keeps its parsed query. */
const PARSED = Symbol('parsed query');

/** The parameters in a query string as URLSearchParams counts them: the pieces between `&`s that are not empty. */
function parameterCount(search: string): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = search.indexOf('&', start);
    const stop = end === -1 ? search.length : end;
    if (stop > start) count++;
    if (end === -1) return count;
    start = end + 1;
  }
}

/** Validates a query against declared parameters. Unknown names are problems too. */
export function createQueryChecker(parameters: readonly QueryParameter[], compile: (schema: JsonSchema) => ValidateFunction) {
  const compiled = parameters.map((parameter) => ({ parameter, validate: compile(parameter.schema) }));
  const known = parameters.map((parameter) => parameter.name);
  return (query: ParsedQuery): { values: Record<string, string | undefined>; problems: QueryProblem[] } => {
    const values: Record<string, string | undefined> = {};
    const refused = query[REFUSED];
    if (refused !== undefined) return { values, problems: [refused] };
    const problems: QueryProblem[] = [];
    for (const name of Object.keys(query)) {
      if (!known.includes(name)) {
        problems.push({ name: '', message: `Unknown query parameter; this route accepts ${known.length ? known.join(', ') : 'none'}.` });
      }
    }
    for (const { parameter, validate } of compiled) {
      const raw = Object.hasOwn(query, parameter.name) ? query[parameter.name] : undefined;
      if (raw === undefined) {
        if (parameter.required) problems.push({ name: parameter.name, message: `Query parameter \`${parameter.name}\` is required.` });
        continue;
      }
      if (Array.isArray(raw)) {
        problems.push({ name: parameter.name, message: `Query parameter \`${parameter.name}\` must be given only once.` });
        continue;
      }
      if (!validate(raw)) {
        problems.push({ name: parameter.name, message: `Query parameter \`${parameter.name}\` must ${parameter.rule}.` });
        continue;
      }
      values[parameter.name] = raw;
    }
    return { values, problems: dedupe(problems) };
  };
}

function dedupe(problems: QueryProblem[]): QueryProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.message) && seen.add(problem.message));
}

/** Query problems as decode issues, located under `query`. */
export function queryIssues(problems: QueryProblem[]): InputIssue[] {
  return problems.map((problem) => ({ path: problem.name ? ['query', problem.name] : ['query'], message: problem.message }));
}

/**
 * The one rule for query strings on routes outside the documentation family: a parameter the route
 * does not take, or a malformed value, is a 400 CalculatorInputDecodeError with every issue under `query`.
 */
export function checkedQuery(query: { values: Record<string, string | undefined>; problems: QueryProblem[] }): Record<string, string | undefined> {
  if (query.problems.length > 0) throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: queryIssues(query.problems), calculatorId: null });
  return query.values;
}
