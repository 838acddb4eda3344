import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from '../../server/app.ts';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import { DEFAULT_CONFIG, type ServiceConfig } from '../../server/process/config.ts';
import type { RequestLogLine } from '../../server/http/request-frame.ts';
import { createClientShare } from '../../server/limits/client-share.ts';
import { createListeningServer } from '../../server/process/listen.ts';
import { loadServingDefaults, resolveServing, type Served } from '../../server/process/served-catalog.ts';
import { createCatalog, loadPacks } from '../../engine/index.ts';
import { PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';

export interface TestServer {
  url: string;
  server: Server;
  logs: RequestLogLine[];
  close(): Promise<void>;
}

let defaultService: Served | undefined;

/**
 * The shipped packs (and any others given) served as `npm start` would serve them with these
 * settings: by default the serving file's tax years, whatever other years' packs are shipped.
 */
export function servedPacks(options: { extraPaths?: string[]; taxYears?: 'all' | string[]; defaultTaxYear?: string; calculators?: 'all' | string[] } = {}): Served {
  const plain = !options.extraPaths && !options.taxYears && !options.defaultTaxYear && !options.calculators;
  if (plain && defaultService) return defaultService;
  const paths = [SHIPPED_PACKS, ...(options.extraPaths ?? [])];
  const loaded = loadPacks(paths, { displayRoot: PROJECT_ROOT });
  if (loaded.diagnostics.length > 0) throw new Error(`the packs have problems: ${JSON.stringify(loaded.diagnostics)}`);
  const served = resolveServing(createCatalog(loaded.packs.flatMap((pack) => pack.plans)), loadServingDefaults(paths), {
    taxYears: options.taxYears ?? null,
    defaultTaxYear: options.defaultTaxYear ?? null,
    calculators: options.calculators ?? null,
  });
  if (plain) defaultService = served;
  return served;
}

/**
 * Starts the app on an ephemeral loopback port with the shipped packs as plain `npm start` serves
 * them, an in-thread runner, and no rate limit, load shedding or search share unless the test says otherwise.
 */
export async function startTestServer(options: { config?: Partial<ServiceConfig>; deps?: Partial<AppDeps> } = {}): Promise<TestServer> {
  const served = options.deps?.catalog ? { catalog: options.deps.catalog, defaultTaxYear: options.deps.defaultTaxYear } : servedPacks();
  const { catalog } = served;
  // No load shedding unless a test asks: tests run their own clients in the same process, on a busy machine.
  const config: ServiceConfig = { ...DEFAULT_CONFIG, rateLimitMax: 0, maxEventLoopDelayMs: 0, ...options.config };
  // Nor a share of search time: tests search as fast as they can, from one address.
  const searchShare = createClientShare({ msPerSecond: 1e9, burstMs: 1e9, maxClients: 1 });
  const logs: RequestLogLine[] = [];
  const app = createApp({
    catalog,
    ...(served.defaultTaxYear ? { defaultTaxYear: served.defaultTaxYear } : {}),
    config,
    runner: createInlineRunner(config.calcConcurrency),
    log: (line) => logs.push(line),
    reportFailure: () => undefined,
    searchShare,
    ...options.deps,
  });
  const server = createListeningServer(app, config, (status, kind) => options.deps?.metrics?.countLimitResponse(status, kind));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    logs,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** POSTs JSON to a calculator's calculate route. */
export function calculate(url: string, calculatorId: string, body: unknown, query = ''): Promise<Response> {
  return fetch(`${url}/api/v1/calculators/${calculatorId}/calculate${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
