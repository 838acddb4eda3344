import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Catalog } from '../engine/index.ts';
import type { DocsSite } from '../docs-site/index.ts';
import type { CalculationRunner } from './calculate/runner.ts';
import type { ServiceConfig } from './process/config.ts';
import { createSchemaCompiler } from './contract/validation.ts';
import { buildOpenApiDocument } from './contract/document.ts';
import { calculatorsById, exampleRequest } from './contract/calculator-pairs.ts';
import { calculatorRunRequestSchema, catalogValues, componentSchemas } from './contract/components.ts';
import { JURISDICTION_QUERY, servedParameter, TAX_YEAR_QUERY } from './contract/parameters.ts';
import { servedOperations, type OperationSpec } from './contract/operations.ts';
import { PAY_RUN_ITEM_HEAD, PAY_RUN_ITEM_ID, payRunEnvelope, payRunSchemas } from './contract/pay-run-schemas.ts';
import { createClientShare, SEARCH_SHARE, type ClientShare } from './limits/client-share.ts';
import { monitorEventLoop, type LoadMonitor } from './limits/load.ts';
import { createSendingBudget, LARGE_BODIES, type SendingBudget } from './limits/sending-budget.ts';
import { createRateLimiter, type RateLimiter } from './limits/rate-limit.ts';
import { createMetadata, type MetadataSource } from './catalog/metadata.ts';
import { createMetrics, type ServiceMetrics } from './process/metrics.ts';
import { createQueryChecker } from './http/query.ts';
import type { AppContext } from './http/context.ts';

/** The validators a pay run is checked with, compiled from its schemas (see contract/pay-run-schemas.ts). */
export interface PayRunValidators {
  /** The body: an object with a list of items of the allowed length; not the items themselves. */
  envelope: ValidateFunction;
  /** What an item names before its calculation is checked: its id and calculator. */
  itemHead: ValidateFunction;
  /** An item's id on its own, so that an item with a usable id keeps it in its result whatever else is wrong. */
  itemId: ValidateFunction;
}

/** What the services are built from. Everything stateful is passed in, so tests can swap it. */
export interface ServiceDeps {
  catalog: Catalog;
  /** The tax year a request without one gets; may be left out when the catalog serves one year. */
  defaultTaxYear?: string;
  runner: CalculationRunner;
  config: ServiceConfig;
  docs?: DocsSite;
  metadata?: MetadataSource;
  rateLimiter?: RateLimiter;
  /** Tells when the service is too busy to start costly work; by default it watches the event loop. */
  load?: LoadMonitor;
  /** Each client's share of documentation search time; by default SEARCH_SHARE. */
  searchShare?: ClientShare;
  /** Bytes of large static files sent each second, in all and per client; by default LARGE_BODIES. */
  sendingBudget?: SendingBudget;
  /** Where requests and calculations are counted; by default a registry of the app's own. */
  metrics?: ServiceMetrics;
}

/** Makes the /mcp handler from the services, as mcp/http.ts does. */
export type McpEndpointFactory = (services: Services, reportFailure: (error: unknown) => void) => (ctx: AppContext) => Promise<void>;

/** Everything the routes use, worked out once when the app is built. */
export interface Services {
  catalog: Catalog;
  /** The tax year a request without one gets. */
  defaultTaxYear: string;
  config: ServiceConfig;
  metadata: MetadataSource;
  runner: CalculationRunner;
  rateLimiter: RateLimiter;
  load: LoadMonitor;
  metrics: ServiceMetrics;
  docs: DocsSite | undefined;
  /** The operations served: the contract's, and those of the API extensions turned on. */
  operations: readonly OperationSpec[];
  /** How a pay run is checked, when pay runs are served. */
  payRun: PayRunValidators | undefined;
  /** Each client's share of the time spent searching the documentation. */
  searchShare: ClientShare;
  /** Bytes of large static files sent each second, in all and per client. */
  sendingBudget: SendingBudget;
  /** The query checker of an operation, from the operations table. */
  queryChecker(operationId: string): ReturnType<typeof createQueryChecker>;
  /** Validates the calculate body's envelope: facts object, jurisdiction, taxYear, nothing else. */
  validateRunRequest: ValidateFunction;
  /** Is a jurisdiction / tax year value well formed (if perhaps not served)? */
  wellFormed: { jurisdiction: ValidateFunction; taxYear: ValidateFunction };
  /** The OpenAPI document, serialised. */
  openApiJson: string;
}

/** Everything the routes use, from what they are built from; the MCP server over stdio (mcp/stdio.ts) uses it too. */
export function createServices(deps: ServiceDeps): Services {
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
