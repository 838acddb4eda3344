import cluster from 'node:cluster';
import type { AddressInfo, Server } from 'node:net';
import { createAdminServer, type Readiness } from './process/admin.ts';
import { createApp } from './app.ts';
import { BootFailure, loadDocs, storedYaml } from './process/boot.ts';
import { PACKS_DIR } from './project-paths.ts';
import { createInlineRunner } from './calculate/inline-runner.ts';
import { startWorkerPool } from './calculate/worker-pool.ts';
import { ConfigError, readConfig } from './process/config.ts';
import { makeDrainable } from './process/drain.ts';
import { takeConnectionsFromPrimary } from './process/connection-handoff.ts';
import { onDrainRequest, runPrimary, shareWorkerMetrics } from './process/fleet.ts';
import { configuredRateLimiter } from './limits/rate-limit.ts';
import { createListeningServer } from './process/listen.ts';
import { createLogger, describeError, exitAfterLogs, SECOND_SIGNAL_LOG_WAIT_MS } from './process/logger.ts';
import { createMetrics } from './process/metrics.ts';
import { onStopSignals, signalExitCode, type StopSignal } from './process/signals.ts';
import { loadServed } from './process/served-catalog.ts';

// In a fleet every line says which worker wrote it, request lines included.
const logger = cluster.isWorker ? createLogger().child({ worker: cluster.worker!.id }) : createLogger();

/**
 * Starts the service: configuration, admin listener, packs and the tax years served, docs,
 * calculation places, then the socket. With WEB_CONCURRENCY above 1 this process becomes the
 * primary of a fleet of workers, each of which starts the service here (the primary keeps the
 * admin listener).
 */
async function main(): Promise<void> {
  const config = readConfig(process.env);
  if (cluster.isPrimary && config.webConcurrency > 1) return runPrimary(config, logger, listen);
  const inFleet = cluster.isWorker;
  // Stop signals are heard from the start. Until the service listens there is nothing to drain, and
  // the process ends at once; left to Node's default, a signal then ended it with no log line.
  let stopRequested = false;
  let stop = (signal: StopSignal) => {
    stopRequested = true;
    logger.info({ event: 'stopped', outcome: 'before-serving', signal });
    exitAfterLogs(0);
  };
  // A signal is heard only between turns of the event loop, and loading packs runs for a long while
  // without one (a SIGTERM sent during a docs compile on this thread was heard only once the
  // service listened). Before each long step, a turn: if a stop was heard, the start goes no further
  // while the process ends.
  const stopHeard = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return stopRequested;
  };
  onStopSignals({
    stop: (signal) => stop(signal),
    stopNow(signal) {
      logger.warn({ event: 'stopped', outcome: 'second-signal', signal });
      exitAfterLogs(signalExitCode(signal), SECOND_SIGNAL_LOG_WAIT_MS);
    },
  });
  const metrics = createMetrics({ processMetrics: true });
  if (inFleet) shareWorkerMetrics(metrics, cluster.worker!.id);
  let readiness: Readiness = 'starting';
  if (config.adminPort !== undefined && !inFleet) {
    const admin = createAdminServer({ metrics, readiness: () => readiness });
    await listen(admin, config.adminPort, config.adminHost, 'admin-listening');
  }

  const packPaths = config.packPaths.length > 0 ? config.packPaths : [PACKS_DIR];
  if (await stopHeard()) return;
  const { catalog, taxYears, defaultTaxYear } = loadServed(packPaths, config);
  if (await stopHeard()) return;
  const docs = await loadDocs(catalog);
  if (await stopHeard()) return;
  if (docs) logger.info({ event: 'docs-loaded', from: docs.from, pages: docs.site.paths().length });
  const runner =
    config.calcIsolation === 'worker'
      ? await startWorkerPool({ size: config.calcConcurrency, packPaths, taxYears, storedYaml: storedYaml() })
      : createInlineRunner(config.calcConcurrency);
  const requestLogger = logger.child({ event: 'request' });
  const rateLimiter = await configuredRateLimiter(config, { inFleet, report: (event) => logger.info(event) });
  const app = createApp({
    catalog,
    defaultTaxYear,
    runner,
    rateLimiter,
    config,
    docs: docs?.site,
    metrics,
    log: (line) => requestLogger.info(line),
    reportFailure: (error) => logger.error({ event: 'unexpected-failure', ...describeError(error) }),
  });
  const server = createListeningServer(app, config, (status, kind) => metrics.countLimitResponse(status, kind));
  const served = { calculators: catalog.plans.length, taxYears, defaultTaxYear };
  // In a fleet the primary listens, once every worker is ready, and hands this worker its connections.
  const drainable = makeDrainable(server, inFleet ? takeConnectionsFromPrimary(server) : undefined);
  if (inFleet) logger.info({ event: 'worker-ready', ...served });
  else {
    // The admin listener took its port first: when it is this one, on this address, the failure says so.
    const wildcard = (host: string) => host === '0.0.0.0' || host === '::';
    const sharesAddress = config.adminHost === config.host || wildcard(config.adminHost) || wildcard(config.host);
    const heldBy = config.adminPort === config.port && config.port !== 0 && sharesAddress ? ADMIN_LISTENER : undefined;
    await listen(server, config.port, config.host, 'listening', served, heldBy);
  }
  readiness = 'ready';

  stop = (signal: StopSignal) => {
    // A worker may be asked twice: by the primary, and by a signal sent to the whole process group.
    if (readiness === 'draining') return;
    readiness = 'draining';
    logger.info({ event: 'stopping', signal, budgetMs: config.drainTimeoutMs });
    // Stop accepting, answer what was received, close every connection, then release the workers.
    void drainable.drain(config.drainTimeoutMs).then(async (outcome) => {
      await runner.close();
      logger.info({ event: 'stopped', outcome });
      exitAfterLogs(outcome === 'drained' ? 0 : 1);
    });
  };
  if (inFleet) onDrainRequest(stop);
}

/** What holds the API's port when ADMIN_PORT names it too. */
const ADMIN_LISTENER = "this service's own admin listener, since ADMIN_PORT is the same as PORT; set ADMIN_PORT to another port";

/**
 * Listens, and logs the address under `event`; a socket that cannot be had is a ListenFailure.
 * `heldBy` says what holds the port if it is taken by the service itself.
 */
async function listen(server: Server, port: number, host: string, event: string, fields: object = {}, heldBy?: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenFailure(error, host, port, heldBy)));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  logger.info({ event, url: `http://${shown}:${address.port}`, ...fields });
}

/** The socket could not be opened: the address is taken, not on this machine, or not allowed. */
class ListenFailure extends Error {
  readonly code: string;
  readonly host: string;
  readonly port: number;
  readonly heldBy: string | undefined;
  constructor(error: NodeJS.ErrnoException, host: string, port: number, heldBy: string | undefined) {
    super(`cannot listen on ${host}:${port}`);
    this.code = error.code ?? error.name;
    this.host = host;
    this.port = port;
    this.heldBy = heldBy;
  }

  get reason(): string {
    switch (this.code) {
      case 'EADDRINUSE':
        if (this.heldBy !== undefined) return `port ${this.port} on ${this.host} is already in use by ${this.heldBy}`;
        return `port ${this.port} on ${this.host} is already in use; stop what holds it or set another port`;
      case 'EADDRNOTAVAIL':
        return `${this.host} is not an address of this machine; set HOST (or ADMIN_HOST) to one of its addresses`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `the host name ${this.host} does not resolve; set HOST (or ADMIN_HOST) to an address or a known name`;
      case 'EACCES':
        return `listening on port ${this.port} needs privileges this process does not have; choose a port above 1023`;
      default:
        return `the socket could not be opened (${this.code})`;
    }
  }
}

process.on('uncaughtException', (error) => {
  logger.fatal({ event: 'uncaught-exception', ...describeError(error) });
  exitAfterLogs(1);
});
process.on('unhandledRejection', (error) => {
  logger.fatal({ event: 'unhandled-rejection', ...describeError(error) });
  exitAfterLogs(1);
});

main().catch((error: unknown) => {
  if (error instanceof ConfigError) logger.fatal({ event: 'invalid-configuration', problems: error.problems });
  else if (error instanceof BootFailure) logger.fatal({ event: 'packs-have-problems', problems: error.problems });
  else if (error instanceof ListenFailure) logger.fatal({ event: 'cannot-listen', host: error.host, port: error.port, code: error.code, reason: error.reason });
  else logger.fatal({ event: 'cannot-start', ...describeError(error) });
  exitAfterLogs(1);
});

