import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { BootFailure, loadCatalog, loadDocs, PACKS_DIR } from './boot.ts';
import { createInlineRunner } from './calculation/inline-runner.ts';
import { startWorkerPool } from './calculation/worker-pool.ts';
import { createListeningServer } from './listen.ts';
import { createBatchedLog } from './log.ts';
import { ConfigError, readConfig } from './config.ts';

/** How long a draining server keeps idle keep-alive connections open for requests already sent. */
const IDLE_CLOSE_GRACE_MS = 100;

/** Starts the service: configuration, packs, docs, calculation workers, then the socket. */
async function main(): Promise<void> {
  const config = readConfig(process.env);
  const packPaths = config.packPaths.length > 0 ? config.packPaths : [PACKS_DIR];
  const catalog = loadCatalog(packPaths);
  const docs = loadDocs(catalog);
  const runner =
    config.calcIsolation === 'worker'
      ? await startWorkerPool({ size: config.calcConcurrency, packPaths })
      : createInlineRunner(catalog, config.calcConcurrency);
  const requestLog = createBatchedLog((text) => process.stdout.write(text));
  const app = createApp({ catalog, runner, config, docs, log: requestLog.log });
  const server = createListeningServer(app.callback(), config);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://${host}:${address.port}`, calculators: catalog.plans.length })}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ event: 'stopping', signal })}\n`);
    // Stop accepting, let requests in flight finish, then release the workers. Every answer from now
    // on closes its connection.
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => response.setHeader('connection', 'close'));
    // Connections and requests that clients made before the signal may not be accepted or read yet:
    // closing the listener resets connections still in its backlog, and a keep-alive connection looks
    // idle until its next request is parsed. So the listener closes after this turn of the event loop
    // has accepted what is waiting, and idle connections only after another turn has read it.
    setImmediate(() =>
      server.close(() => {
        requestLog.flush();
        void runner.close().then(() => process.exit(0));
      }),
    );
    setTimeout(() => setImmediate(() => server.closeIdleConnections()), IDLE_CLOSE_GRACE_MS);
    setTimeout(() => process.exit(0), config.calcTimeoutMs + 1000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof BootFailure;
  process.stderr.write(`${known ? (error as Error).message : `The service could not start: ${String((error as Error)?.stack ?? error)}`}\n`);
  process.exit(1);
});
