import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { createAdminServer, type Readiness } from './admin.ts';
import type { ServiceConfig } from './config.ts';
import { exitAfterLogs, relayLogLines, SECOND_SIGNAL_LOG_WAIT_MS, type Logger } from './logger.ts';
import type { ServiceMetrics } from './metrics.ts';
import { onStopSignals, signalExitCode, type StopSignal } from './signals.ts';

/** What the primary sends a worker to have it drain: a message, not a signal, so it arrives after the connections handed to it. */
interface DrainRequest {
  type: 'drain';
  signal: StopSignal;
}

function isDrainRequest(message: unknown): message is DrainRequest {
  return typeof message === 'object' && message !== null && (message as DrainRequest).type === 'drain';
}

/** In a worker: calls `stop` when the primary asks this worker to drain. */
export function onDrainRequest(stop: (signal: StopSignal) => void): void {
  process.on('message', (message) => {
    if (isDrainRequest(message)) stop(message.signal);
  });
}

/**
 * Runs the service as a fleet of `config.webConcurrency` worker processes sharing one port, with
 * node:cluster: this process, the primary, serves no requests. It starts the workers and reports
 * `listening` once all of them are; replaces a worker that dies (one that dies before it ever
 * listened means the service cannot start, so the fleet stops); keeps the rate-limit counts the
 * workers share when there is no Redis; serves the admin listener with every worker's metrics; and
 * on SIGTERM or SIGINT has every worker drain, then exits.
 */
export async function runPrimary(config: ServiceConfig, logger: Logger, listen: (server: Server, port: number, host: string, event: string) => Promise<void>): Promise<void> {
  // The workers' counts, in this process's memory, when Redis does not keep them.
  if (!config.redisUrl) new RateLimiterClusterMaster();
  const metrics = new AggregatorRegistry();
  const listening = new Set<number>();
  const alive = new Set<number>();
  let readiness: Readiness = 'starting';
  let stopping = false;
  let worstExit = 0;

  if (config.adminPort !== undefined) {
    const admin = createAdminServer({ metrics: { registry: { contentType: metrics.contentType, metrics: () => metrics.clusterMetrics() } }, readiness: () => readiness });
    await listen(admin, config.adminPort, config.adminHost, 'admin-listening');
  }

  // Each worker's log comes here through a pipe of its own and leaves by this process's stdout,
  // whole lines at a time (see relayLogLines). Stderr stays shared: only Node itself writes there.
  cluster.setupPrimary({ stdio: ['inherit', 'pipe', 'inherit', 'ipc'] });
  const start = (): Worker => {
    const worker = cluster.fork();
    if (worker.process.stdout) relayLogLines(worker.process.stdout);
    alive.add(worker.id);
    worker.once('listening', (address) => {
      listening.add(worker.id);
      logger.info({ event: 'worker-listening', worker: worker.id, workerPid: worker.process.pid });
      if (readiness === 'starting' && listening.size === config.webConcurrency) {
        readiness = 'ready';
        const host = address.addressType === 6 ? `[${address.address}]` : address.address;
        logger.info({ event: 'listening', url: `http://${host}:${address.port}`, workers: config.webConcurrency });
      }
    });
    worker.once('exit', (code, signal) => {
      const everListened = listening.delete(worker.id);
      alive.delete(worker.id);
      if (stopping) {
        if (code !== 0) worstExit = 1;
        logger.info({ event: 'worker-stopped', worker: worker.id, code, signal });
        if (alive.size === 0) {
          logger.info({ event: 'stopped', outcome: worstExit === 0 ? 'drained' : 'worker-failed' });
          exitAfterLogs(worstExit);
        }
        return;
      }
      if (!everListened) {
        // Its own log says why (configuration, packs, the port); another would fail the same way.
        logger.fatal({ event: 'worker-failed-to-start', worker: worker.id, code, signal });
        worstExit = 1;
        drainAll('SIGTERM');
        if (alive.size === 0) exitAfterLogs(1);
        return;
      }
      logger.error({ event: 'worker-died', worker: worker.id, code, signal });
      start();
    });
    return worker;
  };

  // Each worker drains as a lone server would: answers what it received, then exits. The request
  // travels on the channel that hands connections to the workers, after every connection already
  // handed over; a signal could overtake them, and a worker closing first would see them reset.
  const drainAll = (signal: StopSignal) => {
    stopping = true;
    readiness = 'draining';
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker?.isConnected()) worker.send({ type: 'drain', signal } satisfies DrainRequest);
      else worker?.process.kill('SIGTERM');
    }
  };

  onStopSignals({
    stop(signal) {
      logger.info({ event: 'stopping', signal, workers: alive.size });
      // Not before this turn of the event loop has accepted, and handed over, the connections
      // already waiting in the listener's backlog.
      setImmediate(() => drainAll(signal));
    },
    stopNow(signal) {
      logger.warn({ event: 'stopped', outcome: 'second-signal', signal });
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      exitAfterLogs(signalExitCode(signal), SECOND_SIGNAL_LOG_WAIT_MS);
    },
  });

  for (let index = 0; index < config.webConcurrency; index++) start();
}

/**
 * Readies a worker's metrics for the primary, which collects every worker's registry for the admin
 * listener: each series carries the worker's id, so the answers of each worker can be told apart.
 */
export function shareWorkerMetrics(metrics: ServiceMetrics, workerId: number): void {
  metrics.registry.setDefaultLabels({ worker: String(workerId) });
  AggregatorRegistry.setRegistries([metrics.registry]);
}
