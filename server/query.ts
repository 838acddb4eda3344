import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { InputIssue, JsonSchema } from '../engine/index.ts';
import { ApiProblem } from './errors.ts';
import type { QueryParameter } from './openapi/parameters.ts';

/** A query string problem: which parameter, and which rule it broke (never the value). */
export interface QueryProblem {
  name: string;
  message: string;
}

/** A query string as the routes see it: each name with its value, or its values when given more than once. */
export type ParsedQuery = Record<string, string | string[] | undefined>;

/** Parses a query string as Koa does for `ctx.query`, for a route answered without Koa. */
export function parseQuery(search: string): ParsedQuery {
  const query: ParsedQuery = Object.create(null) as ParsedQuery;
  if (search === '') return query;
  const params = new URLSearchParams(search);
  for (const name of params.keys()) {
    const values = params.getAll(name);
    query[name] = values.length <= 1 ? values[0] : values;
  }
  return query;
}

/** Validates a query against declared parameters. Unknown names are problems too. */
export function createQueryChecker(parameters: readonly QueryParameter[], compile: (schema: JsonSchema) => ValidateFunction) {
  const compiled = parameters.map((parameter) => ({ parameter, validate: compile(parameter.schema) }));
  const known = parameters.map((parameter) => parameter.name);
  return (query: ParsedQuery): { values: Record<string, string | undefined>; problems: QueryProblem[] } => {
    const values: Record<string, string | undefined> = {};
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
