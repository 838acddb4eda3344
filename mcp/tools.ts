import { displayPath } from '../tools/lib/paths.ts';
import { compareRuns } from '../tools/explain/comparison.ts';
import { factsFor } from '../tools/explain/select.ts';
import { comparisonText } from '../tools/explain/comparison-text.ts';
import { explanation } from '../tools/explain/explanation.ts';
import { HELP_MODES, type CalculatorPlan, type JsonSchema } from '../engine/index.ts';
import { calculatorsById } from '../server/contract/calculator-pairs.ts';
import { ApiProblem, errorResponse } from '../server/contract/errors.ts';
import { checkedQuery } from '../server/http/query.ts';
import { issuesOfRequest } from '../server/calculate/request-issues.ts';
import { resolveCalculator } from '../server/catalog/calculators.ts';
import { checkCalculation, runCalculation } from '../server/calculate/route.ts';
import type { Services } from '../server/services.ts';

/** Who is calling, and since when: the rate limit's client key, and the arrival its budget runs from (now, for each call, when not given). */
export interface McpCaller {
  client: string;
  arrivedAt?: number;
}

/** What a tool answers: text for the assistant to read, and the same answer as JSON. */
export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
  isError?: boolean;
}

/** A tool as the MCP server lists it, with what answers a call to it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  call(args: Record<string, unknown>, caller: McpCaller): Promise<ToolAnswer>;
}

/**
 * The tools of the MCP server, made from the served catalog: listing and describing calculators,
 * then for each calculator a calculate tool and a tool that compares two tax years, both taking
 * that calculator's facts schema as the packs define it, then searching and reading the docs.
 * A calculation runs on the calculate route's own path (checks, load shedding, rate limit, budget),
 * so it answers what the API answers; a refusal is the API's error body, as a tool error.
 */
export function mcpTools(services: Services, reportFailure: (error: unknown) => void): McpTool[] {
  const plans = calculatorsById(services.catalog);
  const ids = plans.map((plan) => plan.def.id);
  const tools: McpTool[] = [
    listCalculatorsTool(services),
    describeCalculatorTool(services, ids),
    ...plans.flatMap((plan) => [calculateTool(services, plan), compareTool(services, plan)]),
    searchDocsTool(services),
    readDocTool(services),
  ];
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`two MCP tools would be named ${tool.name}; calculator ids must differ in more than punctuation`);
    names.add(tool.name);
  }
  return tools.map((tool) => ({ ...tool, call: (args, caller) => answered(services, reportFailure, () => tool.call(args, caller)) }));
}

/** A tool name from a calculator id: MCP clients take letters, digits, `_` and `-`. */
export function toolNameOf(prefix: string, calculatorId: string): string {
  return `${prefix}_${calculatorId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** A refusal as the API would answer it: its error body, counted as the API counts it; anything unexpected reported and answered as the API's hidden failure. */
async function answered(services: Services, reportFailure: (error: unknown) => void, call: () => Promise<ToolAnswer>): Promise<ToolAnswer> {
  let problem: ApiProblem;
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiProblem) problem = error;
    else {
      reportFailure(error);
      problem = new ApiProblem({ _tag: 'CalculatorAdmissionUnavailable' });
    }
  }
  const { status, body } = errorResponse(problem.error);
  services.metrics.countLimitResponse(status, problem.error._tag);
  const structured = body as unknown as Record<string, unknown>;
  const error = ('error' in structured ? structured.error : structured) as { _tag: string; message: string };
  return { text: `Refused (HTTP ${status} ${error._tag}): ${error.message}\n${JSON.stringify(structured, null, 2)}\n`, structured, isError: true };
}

const OPTIONAL_TEXT = { type: 'string' } as const;

/** The tax years a calculator serves, earliest first. */
function taxYearsOf(services: Services, calculatorId: string): string[] {
  return [...new Set(services.catalog.withId(calculatorId).map((plan) => plan.context.taxYear))].sort();
}

/** Arguments a tool does not take are refused as the API refuses a field it does not take. */
function onlyArguments(args: Record<string, unknown>, names: readonly string[], calculatorId: string | null): void {
  const unknown = Object.keys(args).filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', calculatorId, issues: unknown.map((name) => ({ path: [name], message: 'is not an argument this tool takes' })) });
  }
}

/** Arguments given as strings, read by the API's query checkers as a query; a value of another type is refused here. */
function queryOf(args: Record<string, unknown>, names: readonly string[], calculatorId: string | null = null): Record<string, string> {
  const query: Record<string, string> = {};
  const issues = [];
  for (const name of names) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') query[name] = value;
    else issues.push({ path: [name], message: 'must be a string' });
  }
  if (issues.length > 0) throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', calculatorId, issues });
  return query;
}

function json(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

function listCalculatorsTool(services: Services): McpTool {
  const check = services.queryChecker('listCalculators');
  const names = ['jurisdiction', 'taxYear'];
  return {
    name: 'list_calculators',
    title: 'List the calculators',
    description: 'The calculators this service runs, one entry per calculator and tax year served: id, title, description, context and the facts each takes. Filter by jurisdiction or tax year.',
    inputSchema: { type: 'object', properties: { jurisdiction: OPTIONAL_TEXT, taxYear: { type: 'string', description: 'A tax year written YYYY-YY, such as 2025-26.' } }, additionalProperties: false },
    async call(args) {
      onlyArguments(args, names, null);
      const values = checkedQuery(check(queryOf(args, names)));
      const filter = { ...(values.jurisdiction ? { jurisdiction: values.jurisdiction } : {}), ...(values.taxYear ? { taxYear: values.taxYear } : {}) };
      const answer = json(await services.metadata.calculators(filter));
      const entries = answer.calculators as { calculatorId: string; title: string; context: { taxYear: string; jurisdiction: string }; description: string }[];
      const lines = entries.map((entry) => `- ${entry.calculatorId} (${entry.context.jurisdiction} ${entry.context.taxYear}): ${entry.title}. ${entry.description}`);
      return { text: `${entries.length} calculators:\n${lines.join('\n')}\n\nCalculate with calculate_<calculator id> (dots written as _); describe_calculator gives the facts each one asks for.\n`, structured: answer };
    },
  };
}

function describeCalculatorTool(services: Services, ids: readonly string[]): McpTool {
  const check = services.queryChecker('getCalculatorSchema');
  const names = ['calculatorId', 'jurisdiction', 'taxYear', 'help'];
  return {
    name: 'describe_calculator',
    title: 'Describe a calculator',
    description:
      'One calculator in one tax year: the facts it takes, each with the question to ask and its help (expected JSON, an example and the legal sources of the rules that read it), the facts it works out, and its rules with their sources.',
    inputSchema: {
      type: 'object',
      properties: {
        calculatorId: { type: 'string', enum: [...ids] },
        taxYear: { type: 'string', description: `A tax year written YYYY-YY; without it, ${services.defaultTaxYear}.` },
        jurisdiction: OPTIONAL_TEXT,
        help: { type: 'string', enum: [...HELP_MODES], description: 'How much help each question carries; full (the default) gives all of it.' },
      },
      required: ['calculatorId'],
      additionalProperties: false,
    },
    async call(args) {
      const calculatorId = typeof args.calculatorId === 'string' ? args.calculatorId : '';
      onlyArguments(args, names, null);
      const { plan, help } = resolveCalculator(services, calculatorId, check({ help: 'full', ...queryOf(args, ['jurisdiction', 'taxYear', 'help']) }));
      const answer = json(await services.metadata.schema(plan, help));
      return { text: `${plan.def.title} (${plan.def.id}), ${plan.context.jurisdiction} ${plan.context.taxYear}, rule pack ${plan.rulePackVersion}\n${JSON.stringify(answer, null, 2)}\n`, structured: answer };
    },
  };
}

/** The arguments of a calculation: the calculator's facts as its packs define them, and the context. */
function calculationProperties(services: Services, plan: CalculatorPlan): Record<string, JsonSchema> {
  const years = taxYearsOf(services, plan.def.id);
  return {
    facts: { ...plan.factsSchema, description: `The facts ${plan.def.id} takes (describe_calculator explains each).` },
    taxYear: { type: 'string', enum: years, description: `The tax year; without it, ${years.includes(services.defaultTaxYear) ? services.defaultTaxYear : 'the default tax year'}.` },
    jurisdiction: { type: 'string', enum: [plan.context.jurisdiction] },
  };
}

function calculateTool(services: Services, plan: CalculatorPlan): McpTool {
  const calculatorId = plan.def.id;
  const check = services.queryChecker('runCalculator');
  return {
    name: toolNameOf('calculate', calculatorId),
    title: `Calculate: ${plan.def.title}`,
    description: `${plan.def.description} Answers the API's report for ${calculatorId} and the calculation explained step by step, each step with its legal sources.`,
    inputSchema: {
      type: 'object',
      properties: {
        ...calculationProperties(services, plan),
        help: { type: 'string', enum: [...HELP_MODES], description: 'How much help a refusal of the facts carries (as the API\'s help query).' },
      },
      required: ['facts'],
      additionalProperties: false,
    },
    async call(args, caller) {
      const arrivedAt = caller.arrivedAt ?? performance.now();
      const { help, ...request } = args;
      const { issues, context } = issuesOfRequest(services, request);
      const checked = checkCalculation(services, calculatorId, check(queryOf({ help }, ['help'], calculatorId)), request, issues, context);
      const body = await runCalculation(services, checked, caller.client, arrivedAt + services.config.calcTimeoutMs);
      const answer = json(body.toString('latin1'));
      return { text: explanation(checked.plan, answer.report as Record<string, unknown>, checked.facts), structured: answer };
    },
  };
}

function compareTool(services: Services, plan: CalculatorPlan): McpTool {
  const calculatorId = plan.def.id;
  const check = services.queryChecker('runCalculator');
  const { facts, taxYear, jurisdiction } = calculationProperties(services, plan);
  return {
    name: toolNameOf('compare_tax_years', calculatorId),
    title: `Compare two tax years: ${plan.def.title}`,
    description: `Runs the same facts through ${calculatorId} in two tax years and shows what differs: every figure, then step by step the parameter values (with their sources), intermediate values and results that changed.`,
    inputSchema: {
      type: 'object',
      properties: { facts: facts!, taxYear: { ...taxYear, description: 'The tax year to compare (the new side).' }, againstTaxYear: { ...taxYear, description: 'The tax year to compare it against (the old side).' }, jurisdiction: jurisdiction! },
      required: ['facts', 'taxYear', 'againstTaxYear'],
      additionalProperties: false,
    },
    async call(args, caller) {
      const arrivedAt = caller.arrivedAt ?? performance.now();
      const { againstTaxYear, ...request } = args;
      // Each side is checked and calculated as calculate would be, and counts as one calculation.
      // A calculator whose values a date chooses compares the same payment paid on the same day of each
      // year, as explain --against does.
      const side = async (year: unknown) => {
        const { issues, context } = issuesOfRequest(services, { ...request, taxYear: year });
        const checked = checkCalculation(services, calculatorId, check({}), { ...request, taxYear: year }, issues, context);
        const inItsYear = { ...checked, facts: factsFor(checked.plan, checked.facts) };
        await runCalculation(services, inItsYear, caller.client, arrivedAt + services.config.calcTimeoutMs);
        return inItsYear;
      };
      // A side with no year would be the default year, not a comparison.
      if (request.taxYear === undefined || request.taxYear === null || againstTaxYear === undefined || againstTaxYear === null) {
        const missing = ['taxYear', 'againstTaxYear'].filter((name) => args[name] === undefined || args[name] === null);
        throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', calculatorId, issues: missing.map((name) => ({ path: [name], message: 'is required: the tax year of this side of the comparison' })) });
      }
      const newer = await side(request.taxYear);
      const older = await side(againstTaxYear);
      const compared = compareRuns(older.plan, newer.plan, newer.facts, older.facts);
      if (!compared.ok) throw new ApiProblem({ _tag: 'CalculationError', message: `The ${compared.side} side could not be compared: ${compared.failure}`, cause: null });
      const text = comparisonText(compared.comparison, newer.plan.def.title, { old: displayPath(older.plan.pack.dir), new: displayPath(newer.plan.pack.dir) });
      return { text, structured: compared.comparison as unknown as Record<string, unknown> };
    },
  };
}

/** A docs tool's one argument, checked as the docs routes check their query, whose problems are their DocsQueryInvalid. */
function docsArgument(check: ReturnType<Services['queryChecker']>, args: Record<string, unknown>, name: string): string {
  onlyArguments(args, [name], null);
  const { values, problems } = check(queryOf(args, [name]));
  if (problems.length > 0) throw new ApiProblem({ _tag: 'DocsQueryInvalid', message: problems[0]!.message });
  return values[name]!;
}

function searchDocsTool(services: Services): McpTool {
  const check = services.queryChecker('searchDocs');
  return {
    name: 'search_docs',
    title: 'Search the documentation',
    description: 'Full-text search of the service\'s documentation (guides, API reference, tax-year notes and calculator reference pages): at most 20 pages, best first, each with its path for read_doc.',
    inputSchema: { type: 'object', properties: { term: { type: 'string', description: 'Words to search for.' } }, required: ['term'], additionalProperties: false },
    async call(args) {
      const term = docsArgument(check, args, 'term');
      const { docs } = services;
      if (!docs || services.load.saturated()) throw new ApiProblem({ _tag: 'DocsSearchUnavailable' });
      const results = docs.search(term);
      const lines = results.map((result) => `- ${result.title} (${result.path}): ${result.description}`);
      return { text: results.length === 0 ? 'No page matches.\n' : `${lines.join('\n')}\n`, structured: { results } };
    },
  };
}

function readDocTool(services: Services): McpTool {
  const check = services.queryChecker('getDocsPage');
  return {
    name: 'read_doc',
    title: 'Read a documentation page',
    description: 'One page of the documentation as Markdown, by its path (as search_docs gives it, such as /guides/calculate-take-home-pay).',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'The page\'s docs path.' } }, required: ['path'], additionalProperties: false },
    async call(args) {
      const page = services.docs?.page(docsArgument(check, args, 'path'));
      if (!page) throw new ApiProblem({ _tag: 'DocsPageUnavailable' });
      return { text: page.markdown, structured: page as unknown as Record<string, unknown> };
    },
  };
}
