import {
  CALCULATOR_QUERY,
  DOCS_PATH_QUERY,
  DOCS_TERM_QUERY,
  HELP_QUERY,
  CALCULATOR_TAX_YEAR_QUERY,
  JURISDICTION_QUERY,
  TAX_YEAR_QUERY,
  type QueryParameter,
} from './parameters.ts';

/** The routes an operator may add to the contract's: whole pay runs in one request, and the MCP endpoint. */
export const API_EXTENSIONS = ['pay-runs', 'mcp'] as const;
export type ApiExtension = (typeof API_EXTENSIONS)[number];

/**
 * What each kind of operation answers when something unexpected fails (the failure itself is only
 * logged): the documentation's own "unavailable" error, or the calculators'.
 */
export const UNEXPECTED_FAILURE = {
  Health: 'CalculatorAdmissionUnavailable',
  Catalog: 'CalculatorAdmissionUnavailable',
  Calculators: 'CalculatorAdmissionUnavailable',
  Documentation: 'DocsSearchUnavailable',
  'API description': 'CalculatorAdmissionUnavailable',
} as const satisfies Record<OperationSpec['tag'], string>;

/** One documented response of an operation. */
export interface ResponseSpec {
  description: string;
  /** Component schema name of a JSON body. */
  schema?: string;
  /** Media type when not JSON. */
  mediaType?: string;
  headers?: Record<string, { description: string; schema: object }>;
}

/** An HTTP operation: everything the router and the API description need to know about it. */
export interface OperationSpec {
  operationId: string;
  method: 'get' | 'post';
  /** OpenAPI path template, e.g. `/api/v1/calculators/{calculatorId}`. */
  path: string;
  tag: 'Health' | 'Catalog' | 'Calculators' | 'Documentation' | 'API description';
  summary: string;
  description: string;
  query: QueryParameter[];
  calculatorIdInPath?: boolean;
  requestBody?: string;
  responses: Record<string, ResponseSpec>;
  /** The setting of API_EXTENSIONS that serves this operation; the contract's operations have none and are always served. */
  extension?: ApiExtension;
}

/** Every path answers a method it does not take with 405; the operation is where a reader looks for it. */
const METHOD_NOT_ALLOWED: ResponseSpec = {
  description: 'This path does not take the method used (HEAD works wherever GET does). The allow header lists the methods it takes.',
  schema: 'MethodNotAllowed',
  headers: { allow: { description: 'The methods this path takes, e.g. GET, HEAD.', schema: { type: 'string' } } },
};
/** An empty calculator id leaves a path that names no route. */
const EMPTY_CALCULATOR_ID: ResponseSpec = {
  description: 'The calculatorId segment is empty, so the path names no route.',
  schema: 'RouteNotFound',
};

/** The responses of an operation as described: its own, and the answers every path of its kind can give. */
export function documentedResponses(operation: OperationSpec): Record<string, ResponseSpec> {
  return {
    ...operation.responses,
    ...(operation.calculatorIdInPath ? { '404': EMPTY_CALCULATOR_ID } : {}),
    '405': METHOD_NOT_ALLOWED,
  };
}

const NO_QUERY: Record<string, ResponseSpec> = {
  '400': { description: 'The query names a parameter this route does not take (it takes none).', schema: 'MetadataBadRequestError' },
};

const RETRY_AFTER = { 'retry-after': { description: 'Seconds to wait before trying again: always 60.', schema: { type: 'string', const: '60' } } };
const TIMED_OUT: Record<string, ResponseSpec> = { '504': { description: 'The operation could not finish within its five-second budget.', schema: 'TimedOutError' } };
const METADATA_BAD_REQUEST: Record<string, ResponseSpec> = {
  '400': { description: 'A query value is malformed, or the query names a parameter this route does not take.', schema: 'MetadataBadRequestError' },
};
const CALCULATOR_BAD_REQUEST: Record<string, ResponseSpec> = {
  '400': {
    description:
      'Unknown calculator (also an id outside the pattern), unsupported context, an undecodable query or body, or a calculation that cannot complete.',
    schema: 'BadRequestError',
  },
};

/** Every operation of the API, in the contract's order. */
export const OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'getHealth',
    method: 'get',
    path: '/api/health',
    tag: 'Health',
    summary: 'Service health',
    description: 'Reports that the service is up. Needs no credentials and touches no calculation.',
    query: [],
    responses: { '200': { description: 'The service is up.', schema: 'Health' }, ...NO_QUERY },
  },
  {
    operationId: 'getApiReference',
    method: 'get',
    path: '/api/docs',
    tag: 'API description',
    summary: 'Interactive API reference',
    description: 'An HTML page that renders this API description; its assets are served by the service itself.',
    query: [],
    responses: { '200': { description: 'The reference viewer page.', mediaType: 'text/html' }, ...NO_QUERY },
  },
  {
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/api/docs/openapi.json',
    tag: 'API description',
    summary: 'OpenAPI 3.1 description of this API',
    description: 'The machine-readable description of every route, parameter, body, response and error, generated from the same schemas that validate requests.',
    query: [],
    responses: { '200': { description: 'The OpenAPI document.', mediaType: 'application/json' }, ...NO_QUERY },
  },
  {
    operationId: 'listJurisdictions',
    method: 'get',
    path: '/api/v1/jurisdictions',
    tag: 'Catalog',
    summary: 'List jurisdictions',
    description: 'The jurisdictions that have at least one calculator.',
    query: [],
    responses: { '200': { description: 'The jurisdictions.', schema: 'JurisdictionList' }, ...NO_QUERY, ...TIMED_OUT },
  },
  {
    operationId: 'listTaxYears',
    method: 'get',
    path: '/api/v1/tax-years',
    tag: 'Catalog',
    summary: 'List tax years',
    description: 'The (jurisdiction, tax year) pairs served. Filters that match nothing give an empty list.',
    query: [JURISDICTION_QUERY, TAX_YEAR_QUERY],
    responses: { '200': { description: 'The tax years.', schema: 'TaxYearList' }, ...METADATA_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'listCalculators',
    method: 'get',
    path: '/api/v1/calculators',
    tag: 'Catalog',
    summary: 'List calculators',
    description: 'Catalog entries of every calculator, one per calculator and tax year served, in catalog order. Filters that match nothing give an empty list.',
    query: [JURISDICTION_QUERY, TAX_YEAR_QUERY],
    responses: { '200': { description: 'The calculators.', schema: 'CalculatorList' }, ...METADATA_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'getCalculator',
    method: 'get',
    path: '/api/v1/calculators/{calculatorId}',
    tag: 'Catalog',
    summary: 'One calculator entry',
    description: 'The catalog entry of one calculator. Its shape is closed: the help mode never adds fields.',
    query: [HELP_QUERY, JURISDICTION_QUERY, CALCULATOR_TAX_YEAR_QUERY],
    calculatorIdInPath: true,
    responses: { '200': { description: 'The catalog entry.', schema: 'CalculatorEntry' }, ...CALCULATOR_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'getCalculatorSchema',
    method: 'get',
    path: '/api/v1/calculators/{calculatorId}/schema',
    tag: 'Catalog',
    summary: 'Facts, rules and report of a calculator',
    description: 'The input and output fact descriptors, the rules and the report schema name. With a help mode other than errors or none, input questions carry help text (expected JSON, an example, or legal sources).',
    query: [HELP_QUERY, JURISDICTION_QUERY, CALCULATOR_TAX_YEAR_QUERY],
    calculatorIdInPath: true,
    responses: { '200': { description: 'The calculator schema.', schema: 'CalculatorSchema' }, ...CALCULATOR_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'getCalculatorGraph',
    method: 'get',
    path: '/api/v1/calculators/{calculatorId}/graph',
    tag: 'Catalog',
    summary: 'Fact/rule graph of a calculator',
    description: 'One edge per (required fact → provided fact) pair of each rule, in rule order, with the validation issues found by the same validator that runs at boot.',
    query: [JURISDICTION_QUERY, CALCULATOR_TAX_YEAR_QUERY],
    calculatorIdInPath: true,
    responses: { '200': { description: 'The graph.', schema: 'CalculatorGraph' }, ...CALCULATOR_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'runCalculator',
    method: 'post',
    path: '/api/v1/calculators/{calculatorId}/calculate',
    tag: 'Calculators',
    summary: 'Run a calculator',
    description:
      'Runs one calculator on the facts in the body and returns its report with the full calculation trace. ' +
      'au.pay.take-home and au.pay.withholdings take facts shape A (grossPay, taxFreeThresholdClaimed) and return TakeHomePayReport and PayWithholdingsLedger; ' +
      'au.income-tax.annual takes shape B (taxableIncome) and returns AnnualTaxReport. Checks run in this order: body size and time; calculator, request shape and context; rate limit and capacity; facts and calculation.',
    query: [HELP_QUERY],
    calculatorIdInPath: true,
    requestBody: 'CalculatorRunRequest',
    responses: {
      '200': { description: 'The report, with the calculator entry and diagnostics.', schema: 'CalculatorRunResponse' },
      ...CALCULATOR_BAD_REQUEST,
      '408': { description: 'The body was not received within five seconds.', schema: 'RequestTimeoutError' },
      '413': { description: 'The body is over 64 KiB.', schema: 'PayloadTooLargeError' },
      '429': { description: 'Too many calculations from this client.', schema: 'RateLimitedError', headers: RETRY_AFTER },
      '503': { description: 'No calculation place is free, or admission could not be decided.', schema: 'UnavailableError' },
      ...TIMED_OUT,
    },
  },
  {
    operationId: 'listFacts',
    method: 'get',
    path: '/api/v1/facts',
    tag: 'Catalog',
    summary: 'List fact descriptors',
    description: 'Every fact of every matching calculator, each once (a fact described differently in another tax year, once per description), in catalog order then declaration order.',
    query: [CALCULATOR_QUERY, JURISDICTION_QUERY, TAX_YEAR_QUERY],
    responses: { '200': { description: 'The facts.', schema: 'FactList' }, ...METADATA_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'listRules',
    method: 'get',
    path: '/api/v1/rules',
    tag: 'Catalog',
    summary: 'List rule descriptors',
    description: 'Every rule of every matching calculator, each once (a rule with other parameter values in another tax year, once per version), in catalog order then run order.',
    query: [CALCULATOR_QUERY, JURISDICTION_QUERY, TAX_YEAR_QUERY],
    responses: { '200': { description: 'The rules.', schema: 'RuleList' }, ...METADATA_BAD_REQUEST, ...TIMED_OUT },
  },
  {
    operationId: 'getDocsNavigation',
    method: 'get',
    path: '/api/v1/docs/navigation',
    tag: 'Documentation',
    summary: 'Documentation navigation',
    description: 'The sections of the public documentation and their pages.',
    query: [],
    responses: {
      '200': { description: 'The navigation.', schema: 'DocsNavigation' },
      '400': { description: 'The query names a parameter this route does not take (it takes none).', schema: 'DocsQueryInvalid' },
    },
  },
  {
    operationId: 'getDocsPage',
    method: 'get',
    path: '/api/v1/docs/page',
    tag: 'Documentation',
    summary: 'One documentation page as JSON',
    description: 'A published page: frontmatter, processed Markdown, path, slugs and source file.',
    query: [DOCS_PATH_QUERY],
    responses: {
      '200': { description: 'The page.', schema: 'DocsPage' },
      '400': { description: 'The path is missing or malformed, or the query names another parameter.', schema: 'DocsQueryInvalid' },
      '404': { description: 'No published page has this path.', schema: 'DocsPageUnavailable' },
    },
  },
  {
    operationId: 'searchDocs',
    method: 'get',
    path: '/api/v1/docs/search',
    tag: 'Documentation',
    summary: 'Search the documentation',
    description: 'Full-text search over titles, descriptions and bodies, ranked with title matches first; at most 20 results, excerpts of at most 240 characters around the first match.',
    query: [DOCS_TERM_QUERY],
    responses: {
      '200': { description: 'The results, best first.', schema: 'SearchResults' },
      '400': { description: 'The term is missing or malformed, or the query names another parameter.', schema: 'DocsQueryInvalid' },
      '503': { description: 'Search is not available.', schema: 'DocsSearchUnavailable' },
    },
  },
  {
    operationId: 'getDocsMarkdown',
    method: 'get',
    path: '/api/v1/docs/markdown',
    tag: 'Documentation',
    summary: 'One documentation page as Markdown',
    description: 'Exactly the markdown text of the page route, as text/markdown.',
    query: [DOCS_PATH_QUERY],
    responses: {
      '200': { description: 'The page text.', mediaType: 'text/markdown' },
      '400': { description: 'The path is missing or malformed, or the query names another parameter.', schema: 'DocsQueryInvalid' },
      '404': { description: 'No published page has this path.', schema: 'DocsPageUnavailable' },
    },
  },
];

/** Operations beyond the contract, each served only when API_EXTENSIONS names its extension. */
export const EXTENSION_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'runPayRun',
    method: 'post',
    path: '/api/v1/pay-runs',
    tag: 'Calculators',
    extension: 'pay-runs',
    summary: 'Run a whole pay run',
    description:
      'Runs many calculations in one request: each item names its calculator and carries what calculate takes (facts and, optionally, jurisdiction, taxYear and help). ' +
      'Each item is answered with the status and body calculate would have given it, in the order of the request, so one bad item never fails the run. ' +
      'The rate limit counts items: the first items that fit in what is left of the client\'s window run, the rest are answered 429. ' +
      'The run has one time budget: items not finished within it are answered 504.',
    query: [],
    requestBody: 'PayRunRequest',
    responses: {
      '200': { description: 'One result per item, in order.', schema: 'PayRunResponse' },
      '400': { description: 'The body is not a JSON object with a list of items of the allowed length, or the query names a parameter (this route takes none).', schema: 'MetadataBadRequestError' },
      '408': { description: 'The body was not received within five seconds.', schema: 'RequestTimeoutError' },
      '413': { description: 'The body is over the pay-run body limit.', schema: 'PayloadTooLargeError' },
      '503': { description: 'The service is saturated, or admission could not be decided: no item was run.', schema: 'UnavailableError' },
    },
  },
];

/** The operations a service serves: the contract's, and those of the extensions it was asked for. */
export function servedOperations(extensions: ReadonlySet<ApiExtension>): readonly OperationSpec[] {
  const extra = EXTENSION_OPERATIONS.filter((operation) => operation.extension !== undefined && extensions.has(operation.extension));
  return extra.length === 0 ? OPERATIONS : [...OPERATIONS, ...extra];
}

/** The Koa route path of an operation (`{name}` → `:name`). */
export function routePath(operation: OperationSpec): string {
  return operation.path.replace(/\{(\w+)\}/g, ':$1');
}
