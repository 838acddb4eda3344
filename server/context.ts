import type Koa from 'koa';
import type { Catalog } from '../engine/index.ts';
import type { DocsSite } from '../docs-site/index.ts';
import type { CalculationRunner } from './calculation/runner.ts';
import type { ServiceConfig } from './config.ts';
import type { ClientShare } from './limits/client-share.ts';
import type { LoadMonitor } from './limits/load.ts';
import type { SendingBudget } from './limits/sending-budget.ts';
import type { RateLimiter } from './limits/rate-limit.ts';
import type { MetadataSource } from './metadata.ts';
import type { OperationSpec } from './openapi/operations.ts';
import type { ServiceMetrics } from './metrics.ts';
import type { Services } from './services.ts';

/** One structured log line per request; never carries bodies, facts or query values. */
export interface RequestLogLine {
  /** The client's well-formed x-request-id, or one made for the request; sent back in the same header. */
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

/** What the application is built from. Everything stateful is passed in, so tests can swap it. */
export interface AppDeps {
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

/** Makes the /mcp handler from the services, as mcp/http.ts does. */
export type McpEndpointFactory = (services: Services, reportFailure: (error: unknown) => void) => (ctx: AppContext) => Promise<void>;

/** Per-request state the middleware share. */
export interface RequestState {
  /** The operation of the API the request matched, set by the router. */
  operation?: OperationSpec;
}

export type AppContext = Koa.ParameterizedContext<RequestState>;
