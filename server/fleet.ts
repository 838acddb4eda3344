import cluster, { type Worker } from 'node:cluster';
import type { Server } from 'node:http';
import { AggregatorRegistry, prometheusContentType } from 'prom-client';
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

/** What the primary sends a worker for its metrics, and the worker's answer. */
interface MetricsRequest {
  type: 'metrics-request';
  id: number;
}
type WorkerMetrics = Awaited<ReturnType<ServiceMetrics['registry']['getMetricsAsJSON']>>;
interface MetricsAnswer {
  type: 'metrics-answer';
  id: number;
  metrics: WorkerMetrics;
}

const isMessage = <Message extends { type: string }>(message: unknown, type: Message['type']): message is Message =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** How long a scrape waits for each worker's metrics: a worker that has not answered by then is left out of that scrape. */
const METRICS_WAIT_MS = 2000;

/** In a worker: calls `stop` when the primary asks this worker to drain. */
export function onDrainRequest(stop: (signal: StopSignal) => void): void {
  process.on('message', (message) => {
    if (isMessage<DrainRequest>(message, 'drain')) stop(message.signal);
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
  const listening = new Set<number>();
  const serving = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && listening.has(worker.id));
  const alive = new Set<number>();
  let readiness: Readiness = 'starting';
  let stopping = false;
  let worstExit = 0;

  if (config.adminPort !== undefined) {
    const admin = createAdminServer({ metrics: { registry: { contentType: prometheusContentType, metrics: () => fleetMetrics(serving()) } }, readiness: () => readiness });
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

let nextMetricsRequest = 0;

/**
 * Every serving worker's metrics, merged (series with the same labels added up; each worker labels
 * its own). A worker that dies, or does not answer within METRICS_WAIT_MS, is left out of this
 * scrape rather than failing it; with no worker answering the scrape fails.
 */
async function fleetMetrics(workers: Worker[]): Promise<string> {
  const id = nextMetricsRequest++;
  const answers = await Promise.all(
    workers.map(
      (worker) =>
        new Promise<WorkerMetrics | undefined>((resolve) => {
          const finish = (metrics: WorkerMetrics | undefined) => {
            clearTimeout(timer);
            worker.off('message', onMessage);
            worker.off('disconnect', onGone);
            resolve(metrics);
          };
          const onMessage = (message: unknown) => {
            if (isMessage<MetricsAnswer>(message, 'metrics-answer') && message.id === id) finish(message.metrics);
          };
          const onGone = () => finish(undefined);
          const timer = setTimeout(onGone, METRICS_WAIT_MS);
          worker.on('message', onMessage);
          worker.once('disconnect', onGone);
          if (!worker.isConnected()) onGone();
          else worker.send({ type: 'metrics-request', id } satisfies MetricsRequest);
        }),
    ),
  );
  const answered = answers.filter((metrics) => metrics !== undefined);
  if (answered.length === 0) throw new Error('no worker answered');
  return AggregatorRegistry.aggregate(answered).metrics();
}

/**
 * In a worker: labels every series with the worker's id, so that each worker's answers can be told
 * apart, and answers the primary's requests for this registry's metrics.
 */
export function shareWorkerMetrics(metrics: ServiceMetrics, workerId: number): void {
  metrics.registry.setDefaultLabels({ worker: String(workerId) });
  process.on('message', (message) => {
    if (!isMessage<MetricsRequest>(message, 'metrics-request')) return;
    void metrics.registry.getMetricsAsJSON().then((json) => process.send!({ type: 'metrics-answer', id: message.id, metrics: json } satisfies MetricsAnswer));
  });
}
