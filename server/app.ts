import type { RequestListener } from 'node:http';
import Router from '@koa/router';
import { UNEXPECTED_FAILURE, type OperationSpec } from './contract/operations.ts';
import { ApiProblem, errorResponse } from './contract/errors.ts';
import type { AppContext, RequestState } from './http/context.ts';
import { describeError } from './process/logger.ts';
import { parseKoaQueries } from './http/query.ts';
import { apiDocsHandlers, registerApiDocsAssets } from './docs/api-docs.ts';
import { calculateHandlers } from './calculate/route.ts';
import { calculatorHandlers } from './catalog/calculators.ts';
import { catalogHandlers } from './catalog/listings.ts';
import { docsHandlers } from './docs/content.ts';
import { payRunHandlers } from './calculate/pay-runs.ts';
import { registerDocsHtmlRoutes } from './docs/html-pages.ts';
import { registerFavicon } from './docs/favicon.ts';
import { allowedMethods, registerOperations } from './http/routing.ts';
import { corsMiddleware } from './http/cors.ts';
import { answerBatch } from './http/answer-batch.ts';
import { FramedApplication, requestFrame, requestRecorder, type RequestLogLine } from './http/request-frame.ts';
import { createServices, type McpEndpointFactory, type ServiceDeps, type Services } from './services.ts';

/** What the application is built from: the services' parts, and where it reports. */
export interface AppDeps extends ServiceDeps {
  log?: (line: RequestLogLine) => void;
  /** Where unexpected failures are reported (name and stack only); defaults to stderr. */
  reportFailure?: (error: unknown) => void;
  /**
   * What answers /mcp when API_EXTENSIONS names mcp; by default mcp/http.ts's, loaded then. Tests
   * that load the service through a require hook pass the one they loaded: an import() there would
   * load a second copy of the engine, whose values the first copy's plans do not recognise.
   */
  mcpEndpoint?: McpEndpointFactory;
}

/**
 * Builds the service's request handler, the Koa application, from a loaded catalog and its
 * collaborators. Does not listen: `main.ts` and the tests put it on a socket.
 */
export function createApp(deps: AppDeps): RequestListener {
  const services = createServices(deps);
  const app = new FramedApplication();
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

/** Why a path that names no route looks like one: a trailing slash or an empty segment. */
function nearMiss(router: Router<RequestState>, path: string): 'trailing-slash' | 'empty-segment' | undefined {
  if (path.length > 1 && path.endsWith('/') && allowedMethods(router, path.replace(/\/+$/, '')).length > 0) return 'trailing-slash';
  if (path.includes('//')) return 'empty-segment';
  return undefined;
}

function defaultFailureReport(error: unknown): void {
  process.stderr.write(`${JSON.stringify({ level: 'error', event: 'unexpected-failure', ...describeError(error) })}\n`);
}
