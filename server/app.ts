import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { createSchemaCompiler } from './openapi/validation.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { calculatorsById, exampleRequest } from './openapi/calculator-pairs.ts';
import { calculatorRunRequestSchema, catalogValues, componentSchemas } from './openapi/components.ts';
import { JURISDICTION_QUERY, servedParameter, TAX_YEAR_QUERY } from './openapi/parameters.ts';
import { servedOperations, UNEXPECTED_FAILURE, type OperationSpec } from './openapi/operations.ts';
import { PAY_RUN_ITEM_HEAD, PAY_RUN_ITEM_ID, payRunEnvelope, payRunSchemas } from './openapi/pay-run-schemas.ts';
import { ApiProblem, errorResponse } from './errors.ts';
import type { AppContext, AppDeps, McpEndpointFactory, RequestState } from './context.ts';
import { createClientShare, SEARCH_SHARE } from './limits/client-share.ts';
import { monitorEventLoop } from './limits/load.ts';
import { createSendingBudget, LARGE_BODIES } from './limits/sending-budget.ts';
import { createRateLimiter } from './limits/rate-limit.ts';
import { createMetadata } from './metadata.ts';
import { createMetrics } from './metrics.ts';
import { describeError } from './logger.ts';
import { createQueryChecker, parseKoaQueries } from './query.ts';
import { apiDocsHandlers, registerApiDocsAssets } from './routes/api-docs.ts';
import { calculateHandlers } from './routes/calculate.ts';
import { calculatorHandlers } from './routes/calculators.ts';
import { catalogHandlers } from './routes/catalog.ts';
import { docsHandlers } from './routes/docs.ts';
import { payRunHandlers } from './routes/pay-runs.ts';
import { registerDocsHtmlRoutes } from './routes/docs-html.ts';
import { registerFavicon } from './favicon.ts';
import { allowedMethods, registerOperations } from './routes/operations.ts';
import { corsMiddleware } from './middleware/cors.ts';
import { answerBatch } from './answer-batch.ts';
import { requestFrame, requestRecorder } from './request-frame.ts';
import type { Services } from './services.ts';

export type { AppDeps } from './context.ts';

/**
 * Builds the service's request handler, the Koa application, from a loaded catalog and its
 * collaborators. Does not listen: `main.ts` and the tests put it on a socket.
 */
export function createApp(deps: AppDeps): RequestListener {
  const services = createServices(deps);
  const app = new Koa<RequestState>();
  parseKoaQueries(app);
  const log = deps.log ?? ((line) => process.stdout.write(`${JSON.stringify(line)}\n`));
  const reportFailure = deps.reportFailure ?? defaultFailureReport;
  const { metrics } = services;

  /** The contract's answer to anything a request threw, counted when a limit gave it; anything unexpected is reported and hidden from the client. */
  const answerError = (error: unknown, operation: OperationSpec | undefined) => {
    let problem: ApiProblem;
    if (error instanceof ApiProblem) problem = error;
    else {
      reportFailure(error);
      // The operation that failed says what its clients are told; outside the operations, the calculators' answer.
      problem = new ApiProblem({ _tag: UNEXPECTED_FAILURE[operation?.tag ?? 'Calculators'] });
    }
    const { status, body, headers } = errorResponse(problem.error);
    metrics.countLimitResponse(status, problem.error._tag);
    return { status, body: JSON.stringify(body), headers };
  };

  // Every request: its id, errors in the contract's shapes, its answer written in a batch, one log line.
  app.use(
    requestFrame({
      record: requestRecorder(log, metrics),
      answerError,
      sendSoon: answerBatch(deps.config.answerBatchMax, reportFailure),
      writeTimeoutMs: deps.config.responseWriteTimeoutMs,
      reportFailure,
    }),
  );

  // Errors Koa meets outside the middleware, such as writing to a client that has gone.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (!CLIENT_GONE.has(error.code ?? '')) reportFailure(error);
  });

  if (deps.config.corsOrigins.length > 0) app.use(corsMiddleware(new Set(deps.config.corsOrigins)));

  // Paths match exactly: no trailing slash, same case, so every path the service answers is one the
  // API description names (a near miss gets a 404 that says what was near).
  // The operations table registers the contract's routes; the viewer's files and the HTML docs are
  // extras beside them.
  const router = new Router<RequestState>({ strict: true, sensitive: true });
  registerOperations(router, services.operations, {
    ...calculateHandlers(services),
    ...catalogHandlers(services),
    ...calculatorHandlers(services),
    ...docsHandlers(services),
    ...apiDocsHandlers(services),
    ...(services.payRun ? payRunHandlers(services, services.payRun) : {}),
  });
  if (deps.config.apiExtensions.has('mcp')) registerMcpEndpoint(router, services, reportFailure, deps.mcpEndpoint);
  registerApiDocsAssets(router, services);
  registerDocsHtmlRoutes(router, services);
  registerFavicon(router);
  app.use(router.routes());

  // Nothing answered: a path the router knows with another method is a 405, anything else a 404.
  // A client gone before its answer is owed neither (the frame gives it 499).
  app.use(async (ctx: AppContext) => {
    if (ctx.body !== undefined || ctx.status !== 404 || !ctx.writable) return;
    const allowed = allowedMethods(router, ctx.path);
    throw new ApiProblem(allowed.length > 0 && !allowed.includes(ctx.method) ? { _tag: 'MethodNotAllowed', allow: allowed } : { _tag: 'RouteNotFound', near: nearMiss(router, ctx.path) });
  });

  return app.callback();
}

/** Where the MCP endpoint is served (API_EXTENSIONS=mcp), outside the contract's routes. */
export const MCP_PATH = '/mcp';

/**
 * POST /mcp: the MCP server (mcp/http.ts). Its SDK is loaded only when the endpoint is served, and
 * at once, so a service without it never loads it and the first MCP request does not wait for it.
 */
function registerMcpEndpoint(router: Router<RequestState>, services: Services, reportFailure: (error: unknown) => void, given: McpEndpointFactory | undefined): void {
  const factory = given ? Promise.resolve(given) : import('../mcp/http.ts').then((module) => module.mcpEndpoint);
  const endpoint = factory.then((make) => make(services, reportFailure));
  // A failure to load is answered to each request that needs it, as an unexpected failure.
  endpoint.catch(() => undefined);
  router.post('mcp', MCP_PATH, async (ctx: AppContext) => (await endpoint)(ctx));
}

/** Socket errors that only say the client went away: nothing to report. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

/** Everything the routes use, from what the app is built from; the MCP server over stdio (mcp/stdio.ts) uses it too. */
export function createServices(deps: AppDeps): Services {
  const values = catalogValues(deps.catalog, deps.defaultTaxYear);
  if (!values.taxYears.includes(values.defaultTaxYear)) {
    throw new Error(`the default tax year must be one of the catalog's tax years (${values.taxYears.join(', ')})`);
  }
  const operations = servedOperations(deps.config.apiExtensions);
  const payRuns = deps.config.apiExtensions.has('pay-runs');
  const components = componentSchemas(deps.catalog, values);
  if (payRuns) Object.assign(components, payRunSchemas(deps.catalog, deps.config.payRunMaxItems, (facts) => calculatorRunRequestSchema(facts, values)));
  const compile = createSchemaCompiler(components);
  const checkers = new Map(
    operations.map((operation) => [operation.operationId, createQueryChecker(operation.query.map((parameter) => servedParameter(parameter, values)), compile)]),
  );
  const examples = calculatorsById(deps.catalog).flatMap((plan) => {
    const example = exampleRequest(plan);
    return example ? [[plan.def.id, example] as const] : [];
  });
  const document = buildOpenApiDocument(components, values, Object.fromEntries(examples), operations);
  return {
    operations,
    payRun: payRuns ? { envelope: compile(payRunEnvelope(components.PayRunRequest!)), itemHead: compile(PAY_RUN_ITEM_HEAD), itemId: compile(PAY_RUN_ITEM_ID) } : undefined,
    catalog: deps.catalog,
    defaultTaxYear: values.defaultTaxYear,
    config: deps.config,
    metadata: deps.metadata ?? createMetadata(deps.catalog),
    runner: deps.runner,
    metrics: deps.metrics ?? createMetrics(),
    load: deps.load ?? monitorEventLoop(deps.config.maxEventLoopDelayMs),
    rateLimiter: deps.rateLimiter ?? createRateLimiter({ max: deps.config.rateLimitMax, windowSeconds: deps.config.rateLimitWindowSeconds }),
    docs: deps.docs,
    searchShare: deps.searchShare ?? createClientShare(SEARCH_SHARE),
    sendingBudget: deps.sendingBudget ?? createSendingBudget(LARGE_BODIES),
    queryChecker: (operationId) => {
      const checker = checkers.get(operationId);
      if (!checker) throw new Error(`no operation ${operationId}`);
      return checker;
    },
    // The facts are decoded later, by the calculator's own schema; here they need only be an object.
    validateRunRequest: compile(calculatorRunRequestSchema({ type: 'object', 'x-expected': 'an object of calculator facts' }, values)),
    wellFormed: { jurisdiction: compile(JURISDICTION_QUERY.schema), taxYear: compile(TAX_YEAR_QUERY.schema) },
    openApiJson: JSON.stringify(document),
  };
}

/** Why a path that names no route looks like one: a trailing slash or an empty segment. */
function nearMiss(router: Router<RequestState>, path: string): 'trailing-slash' | 'empty-segment' | undefined {
  if (path.length > 1 && path.endsWith('/') && allowedMethods(router, path.replace(/\/+$/, '')).length > 0) return 'trailing-slash';
  if (path.includes('//')) return 'empty-segment';
  return undefined;
}

function defaultFailureReport(error: unknown): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', event: 'unexpected-failure', ...describeError(error) })}\n`);
}
