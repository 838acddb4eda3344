import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { BootFailure, loadCatalog, loadDocs, PACKS_DIR } from './boot.ts';
import { createInlineRunner } from './calculation/inline-runner.ts';
import { startWorkerPool } from './calculation/worker-pool.ts';
import { makeDrainable } from './drain.ts';
import { createListeningServer } from './listen.ts';
import { onStopSignals, signalExitCode } from './signals.ts';
import { createBatchedLog } from './log.ts';
import { ConfigError, readConfig } from './config.ts';

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
  const drainable = makeDrainable(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://${host}:${address.port}`, calculators: catalog.plans.length })}\n`);

  const event = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
  onStopSignals({
    stop(signal) {
      event({ event: 'stopping', signal });
      // Stop accepting, answer what was received, close every connection, then release the workers.
      void drainable.drain(config.drainTimeoutMs).then(async (outcome) => {
        await runner.close();
        requestLog.flush();
        event({ event: 'stopped', outcome });
        process.exit(outcome === 'drained' ? 0 : 1);
      });
    },
    stopNow(signal) {
      requestLog.flush();
      event({ event: 'stopped', outcome: 'second-signal', signal });
      process.exit(signalExitCode(signal));
    },
  });
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof BootFailure;
  process.stderr.write(`${known ? (error as Error).message : `The service could not start: ${String((error as Error)?.stack ?? error)}`}\n`);
  process.exit(1);
});
