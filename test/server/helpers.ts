import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppDeps } from '../../server/app.ts';
import { createInlineRunner } from '../../server/calculation/inline-runner.ts';
import { DEFAULT_CONFIG, type ServiceConfig } from '../../server/config.ts';
import type { RequestLogLine } from '../../server/context.ts';
import { createListeningServer } from '../../server/listen.ts';
import { shippedPacks } from '../helpers/packs.ts';

export interface TestServer {
  url: string;
  server: Server;
  logs: RequestLogLine[];
  close(): Promise<void>;
}

/**
 * Starts the app on an ephemeral loopback port with the shipped packs, an in-thread runner and no
 * rate limit unless the test says otherwise.
 */
export async function startTestServer(options: { config?: Partial<ServiceConfig>; deps?: Partial<AppDeps> } = {}): Promise<TestServer> {
  const { catalog } = shippedPacks();
  const config: ServiceConfig = { ...DEFAULT_CONFIG, rateLimitMax: 0, ...options.config };
  const logs: RequestLogLine[] = [];
  const app = createApp({
    catalog,
    config,
    runner: createInlineRunner(catalog, config.calcConcurrency),
    log: (line) => logs.push(line),
    reportFailure: () => undefined,
    ...options.deps,
  });
  const server = createListeningServer(app.callback(), config);
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
