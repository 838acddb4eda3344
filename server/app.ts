import Router from '@koa/router';
import Koa from 'koa';
import { createSchemaCompiler } from './openapi/validation.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { calculatorRunRequestSchema, catalogValues, componentSchemas } from './openapi/components.ts';
import { JURISDICTION_QUERY, TAX_YEAR_QUERY } from './openapi/parameters.ts';
import { OPERATIONS, routePath } from './openapi/operations.ts';
import { ApiProblem, errorResponse } from './errors.ts';
import type { AppContext, AppDeps, RequestState } from './context.ts';
import { createRateLimiter } from './limits/rate-limit.ts';
import { createMetadata } from './metadata.ts';
import { createQueryChecker } from './query.ts';
import { registerApiDocsRoutes } from './routes/api-docs.ts';
import { registerCalculateRoute } from './routes/calculate.ts';
import { registerCalculatorRoutes } from './routes/calculators.ts';
import { registerCatalogRoutes } from './routes/catalog.ts';
import { registerDocsRoutes } from './routes/docs.ts';
import { corsMiddleware } from './middleware/cors.ts';
import type { Services } from './services.ts';

export type { AppDeps } from './context.ts';

/**
 * Builds the Koa application from a loaded catalog and its collaborators. Does not listen: tests
 * drive `app.callback()` directly, `main.ts` puts it on a socket.
 */
export function createApp(deps: AppDeps): Koa<RequestState> {
  const services = createServices(deps);
  const app = new Koa<RequestState>();
  app.proxy = deps.config.trustProxyHops > 0;
  app.maxIpsCount = deps.config.trustProxyHops;
  const log = deps.log ?? ((line) => process.stdout.write(`${JSON.stringify(line)}\n`));
  const reportFailure = deps.reportFailure ?? defaultFailureReport;

  // One log line per request: method, route template, status and duration; no values of any kind.
  app.use(async (ctx: AppContext, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // The route template that matched, never the raw path, which may carry values.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : '(unmatched)';
      log({ method: ctx.method, route, status: ctx.status, durationMs: Math.round((performance.now() - started) * 100) / 100 });
    }
  });

  // Every error is answered here, in the contract's shapes; anything unexpected is hidden from the client.
  app.use(async (ctx: AppContext, next) => {
    try {
      await next();
    } catch (error) {
      let problem: ApiProblem;
      if (error instanceof ApiProblem) problem = error;
      else {
        reportFailure(error);
        problem = new ApiProblem({ _tag: ctx.path.startsWith('/api/v1/docs') ? 'DocsSearchUnavailable' : 'CalculatorAdmissionUnavailable' });
      }
      const { status, body, headers } = errorResponse(problem.error);
      ctx.status = status;
      ctx.set(headers);
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(body);
    }
  });

  app.use(async (ctx: AppContext, next) => {
    ctx.set('x-content-type-options', 'nosniff');
    await next();
  });
  if (deps.config.corsOrigins.length > 0) app.use(corsMiddleware(deps.config.corsOrigins));

  const router = new Router<RequestState>();
  registerCatalogRoutes(router, services);
  registerCalculatorRoutes(router, services);
  registerCalculateRoute(router, services);
  registerDocsRoutes(router, services);
  registerApiDocsRoutes(router, services);
  app.use(router.routes());

  // Nothing answered: a known path with another method is a 405, anything else a 404.
  app.use(async (ctx: AppContext) => {
    if (ctx.body !== undefined || ctx.status !== 404) return;
    const allowed = allowedMethods(ctx.path);
    throw new ApiProblem(allowed.length > 0 && !allowed.includes(ctx.method) ? { _tag: 'MethodNotAllowed', allow: allowed } : { _tag: 'RouteNotFound' });
  });
  return app;
}

function createServices(deps: AppDeps): Services {
  const components = componentSchemas(deps.catalog);
  const compile = createSchemaCompiler(components);
  const values = catalogValues(deps.catalog);
  const checkers = new Map(OPERATIONS.map((operation) => [operation.operationId, createQueryChecker(operation.query, compile)]));
  const document = buildOpenApiDocument(components, values.calculatorIds);
  return {
    catalog: deps.catalog,
    config: deps.config,
    metadata: deps.metadata ?? createMetadata(deps.catalog),
    runner: deps.runner,
    rateLimiter: deps.rateLimiter ?? createRateLimiter(deps.config.rateLimitMax, deps.config.rateLimitWindowSeconds),
    docs: deps.docs,
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

/** Methods the router answers for a path (HEAD wherever GET), or none when no route matches it. */
function allowedMethods(path: string): string[] {
  const methods = new Set<string>();
  for (const operation of OPERATIONS) {
    const pattern = new RegExp(`^${routePath(operation).replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`);
    if (pattern.test(path)) methods.add(operation.method.toUpperCase());
  }
  if (/^\/api\/docs\/assets\/[^/]+$/.test(path)) methods.add('GET');
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}

function defaultFailureReport(error: unknown): void {
  // Name and stack frames only: an error message can quote input.
  const name = error instanceof Error ? error.name : 'Error';
  const frames = error instanceof Error ? (error.stack ?? '').split('\n').slice(1).join('\n') : '';
  process.stderr.write(`${JSON.stringify({ level: 'error', event: 'unexpected-failure', name, frames })}\n`);
}
