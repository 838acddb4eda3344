import { availableParallelism } from 'node:os';
import { delimiter } from 'node:path';
import { API_EXTENSIONS, type ApiExtension } from '../contract/operations.ts';

/** Service settings, read from the environment with the contract's values as defaults. */
export interface ServiceConfig {
  host: string;
  port: number;
  /** Calculations per client per window; 0 turns rate limiting off. */
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** Redis that keeps the rate-limit counts for every process and host using it; unset keeps them in this service. */
  redisUrl: string | undefined;
  /** How long the rate-limit store may take to answer before the calculation is refused with 503. */
  rateLimitStoreTimeoutMs: number;
  /** Worker processes that serve on one port (node:cluster); 1 means this process serves alone. */
  webConcurrency: number;
  /** Calculation places; no queue beyond them. */
  calcConcurrency: number;
  /**
   * Where calculations run: `thread` (default) in the request thread, bounded by the engine's
   * deadline between rule steps; `worker` on a pool of CALC_CONCURRENCY worker threads, where a
   * calculation over budget is stopped outright, for packs whose single rules could run long.
   */
  calcIsolation: 'thread' | 'worker';
  /** Budget of every calculator operation, counted from the request's arrival. */
  calcTimeoutMs: number;
  /**
   * Event-loop delay, while the loop is busy with the service's own work, past which the service is
   * saturated: new calculations and uncached documentation searches are refused at once. 0 turns it off.
   */
  maxEventLoopDelayMs: number;
  bodyLimitBytes: number;
  bodyTimeoutMs: number;
  /**
   * Proxies in front of the service that add to X-Forwarded-For; the client is the address the
   * nearest of them saw. 0 means the client is the connection's peer.
   */
  trustProxyHops: number;
  /** Origins allowed to call the API from a browser; empty means CORS is off. */
  corsOrigins: string[];
  /** Folders to load rule packs from; empty means the project's own rulepacks/. */
  packPaths: string[];
  /**
   * Tax years to serve: `all` that the loaded packs serve, a list, or null for the serving file's
   * default. Checked against the packs once they are loaded (see served-catalog.ts).
   */
  taxYears: 'all' | string[] | null;
  /** The tax year a request without one gets; null for the serving file's default. */
  defaultTaxYear: string | null;
  /**
   * Calculators to serve, by id: `all` that the loaded packs define, a list, or null for the serving
   * file's default. Checked against the packs once they are loaded (see served-catalog.ts).
   */
  calculators: 'all' | string[] | null;
  /** Connection limits that keep slow or greedy clients from starving the others. */
  maxConnections: number;
  /**
   * Open connections per client (IPv4 address or IPv6 /64 of the peer); 0 for no limit. Off by
   * default behind trusted proxies, where the peer is the proxy.
   */
  maxConnectionsPerClient: number;
  /** How long writing a response to a client may take before the connection is closed. */
  responseWriteTimeoutMs: number;
  /** Most answers written together at the end of a turn of the event loop; 1 writes each as soon as it is ready. */
  answerBatchMax: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxHeaderBytes: number;
  /** How long a stopping server may take to answer what it has received before it cuts the rest off. */
  drainTimeoutMs: number;
  /** Port of the admin listener (liveness, readiness, metrics); undefined means there is none. */
  adminPort: number | undefined;
  adminHost: string;
  /** Routes beyond the contract that the operator turned on (API_EXTENSIONS); none by default, so the service is exactly the contract. */
  apiExtensions: ReadonlySet<ApiExtension>;
  /** Most items one pay run may hold. */
  payRunMaxItems: number;
  /** Largest accepted pay-run body, in bytes. */
  payRunBodyLimitBytes: number;
}

export const DEFAULT_CONFIG: ServiceConfig = {
  host: '127.0.0.1',
  port: 4000,
  rateLimitMax: 60,
  rateLimitWindowSeconds: 60,
  webConcurrency: 1,
  redisUrl: undefined,
  rateLimitStoreTimeoutMs: 250,
  calcConcurrency: 8,
  calcIsolation: 'thread',
  calcTimeoutMs: 5000,
  maxEventLoopDelayMs: 100,
  bodyLimitBytes: 65536,
  bodyTimeoutMs: 5000,
  trustProxyHops: 0,
  corsOrigins: [],
  packPaths: [],
  taxYears: null,
  defaultTaxYear: null,
  calculators: null,
  maxConnections: 1024,
  maxConnectionsPerClient: 256,
  responseWriteTimeoutMs: 30_000,
  answerBatchMax: 32,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  // Under the 10 s a container runtime waits after SIGTERM before it kills.
  drainTimeoutMs: 8_000,
  adminPort: undefined,
  adminHost: '127.0.0.1',
  apiExtensions: new Set(),
  payRunMaxItems: 1000,
  // A thousand items of a few hundred bytes each, with room to spare.
  payRunBodyLimitBytes: 2 * 1024 * 1024,
};

/** How a tax year is written in settings, as in a pack's `taxYear.id`. */
const TAX_YEAR = /^\d{4}-\d{2}$/;

/** How a calculator id is written, as in a calculator's `id`. */
const CALCULATOR_ID = /^[a-z0-9]+([.-][a-z0-9]+)*$/;

/** Thrown for settings that cannot be used; each problem names the variable and what it must be. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}.`);
    this.problems = problems;
  }
}

/** Reads the configuration; every problem is collected into one error. */
export function readConfig(env: NodeJS.ProcessEnv): ServiceConfig {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  };
  const hostSetting = (name: string, fallback: string): string => {
    const value = env[name]?.trim() || fallback;
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(value)) problems.push(`${name} must be a host name or an IP address`);
    return value;
  };
  const host = hostSetting('HOST', DEFAULT_CONFIG.host);
  const adminHost = hostSetting('ADMIN_HOST', DEFAULT_CONFIG.adminHost);
  const isolation = env.CALC_ISOLATION?.trim() || 'thread';
  if (isolation !== 'thread' && isolation !== 'worker') problems.push('CALC_ISOLATION must be thread or worker');
  // Unset or 0: this process serves alone; `auto`: one worker per core.
  const processes = env.WEB_CONCURRENCY?.trim() ?? '';
  let webConcurrency = DEFAULT_CONFIG.webConcurrency;
  if (processes === 'auto') webConcurrency = availableParallelism();
  else if (/^\d+$/.test(processes) && Number(processes) <= 256) webConcurrency = Math.max(1, Number(processes));
  else if (processes !== '') problems.push('WEB_CONCURRENCY must be auto or a whole number from 0 to 256');
  const trustProxyHops = integer('TRUST_PROXY', DEFAULT_CONFIG.trustProxyHops, 0, 16);
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const corsOrigins = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) problems.push('CORS_ORIGINS must be a comma-separated list of origins such as https://app.example.com');
  }
  const taxYearsSetting = env.TAX_YEARS?.trim() ?? '';
  const taxYears = taxYearsSetting === '' ? null : taxYearsSetting === 'all' ? 'all' : [...new Set(taxYearsSetting.split(',').map((year) => year.trim()))];
  if (Array.isArray(taxYears) && !taxYears.every((year) => TAX_YEAR.test(year))) {
    problems.push('TAX_YEARS must be all or a comma-separated list of tax years written YYYY-YY, such as the taxYear of a rule pack');
  }
  const extensionsSetting = (env.API_EXTENSIONS ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  const apiExtensions = new Set<ApiExtension>(extensionsSetting.includes('all') ? API_EXTENSIONS : []);
  for (const name of extensionsSetting) {
    if ((API_EXTENSIONS as readonly string[]).includes(name)) apiExtensions.add(name as ApiExtension);
    else if (name !== 'all') problems.push(`API_EXTENSIONS must be all or a comma-separated list of ${API_EXTENSIONS.join(', ')}`);
  }
  const calculatorsSetting = env.CALCULATORS?.trim() ?? '';
  const calculators = calculatorsSetting === '' ? null : calculatorsSetting === 'all' ? 'all' : [...new Set(calculatorsSetting.split(',').map((id) => id.trim()))];
  if (Array.isArray(calculators) && !calculators.every((id) => CALCULATOR_ID.test(id) && id.length <= 64)) {
    problems.push('CALCULATORS must be all or a comma-separated list of calculator ids, such as au.pay.take-home');
  }
  const defaultTaxYear = env.DEFAULT_TAX_YEAR?.trim() || null;
  if (defaultTaxYear !== null && !TAX_YEAR.test(defaultTaxYear)) problems.push('DEFAULT_TAX_YEAR must be a tax year written YYYY-YY');
  const config: ServiceConfig = {
    host,
    port: integer('PORT', DEFAULT_CONFIG.port, 0, 65535),
    rateLimitMax: integer('RATE_LIMIT_MAX', DEFAULT_CONFIG.rateLimitMax, 0, 1_000_000),
    rateLimitWindowSeconds: integer('RATE_LIMIT_WINDOW_S', DEFAULT_CONFIG.rateLimitWindowSeconds, 1, 86_400),
    webConcurrency,
    redisUrl,
    rateLimitStoreTimeoutMs: integer('RATE_LIMIT_STORE_TIMEOUT_MS', DEFAULT_CONFIG.rateLimitStoreTimeoutMs, 1, 60_000),
    calcConcurrency: integer('CALC_CONCURRENCY', DEFAULT_CONFIG.calcConcurrency, 1, 256),
    calcIsolation: isolation === 'worker' ? 'worker' : 'thread',
    calcTimeoutMs: integer('CALC_TIMEOUT_MS', DEFAULT_CONFIG.calcTimeoutMs, 1, 600_000),
    maxEventLoopDelayMs: integer('MAX_EVENT_LOOP_DELAY_MS', DEFAULT_CONFIG.maxEventLoopDelayMs, 0, 60_000),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', DEFAULT_CONFIG.bodyLimitBytes, 1, 64 * 1024 * 1024),
    bodyTimeoutMs: integer('BODY_TIMEOUT_MS', DEFAULT_CONFIG.bodyTimeoutMs, 1, 600_000),
    trustProxyHops,
    corsOrigins: [...new Set(corsOrigins)],
    maxConnections: integer('MAX_CONNECTIONS', DEFAULT_CONFIG.maxConnections, 1, 100_000),
    // Behind proxies the peer is a proxy, which carries many clients' connections.
    maxConnectionsPerClient: integer('MAX_CONNECTIONS_PER_CLIENT', trustProxyHops > 0 ? 0 : DEFAULT_CONFIG.maxConnectionsPerClient, 0, 100_000),
    responseWriteTimeoutMs: integer('RESPONSE_WRITE_TIMEOUT_MS', DEFAULT_CONFIG.responseWriteTimeoutMs, 100, 600_000),
    answerBatchMax: integer('ANSWER_BATCH_MAX', DEFAULT_CONFIG.answerBatchMax, 1, 1024),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_MS', DEFAULT_CONFIG.headersTimeoutMs, 100, 600_000),
    keepAliveTimeoutMs: integer('KEEP_ALIVE_TIMEOUT_MS', DEFAULT_CONFIG.keepAliveTimeoutMs, 100, 600_000),
    maxHeaderBytes: integer('MAX_HEADER_BYTES', DEFAULT_CONFIG.maxHeaderBytes, 1024, 1024 * 1024),
    drainTimeoutMs: integer('DRAIN_TIMEOUT_MS', DEFAULT_CONFIG.drainTimeoutMs, 1, 600_000),
    adminPort: env.ADMIN_PORT === undefined || env.ADMIN_PORT.trim() === '' ? undefined : integer('ADMIN_PORT', 0, 0, 65535),
    adminHost,
    apiExtensions,
    payRunMaxItems: integer('PAY_RUN_MAX_ITEMS', DEFAULT_CONFIG.payRunMaxItems, 1, 10_000),
    payRunBodyLimitBytes: integer('PAY_RUN_BODY_LIMIT_BYTES', DEFAULT_CONFIG.payRunBodyLimitBytes, 1, 64 * 1024 * 1024),
    packPaths: (env.RULEPACKS_DIR ?? '').split(delimiter).map((path) => path.trim()).filter(Boolean),
    taxYears,
    defaultTaxYear,
    calculators,
  };
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return config;
}
