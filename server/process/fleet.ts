import cluster, { type Worker } from 'node:cluster';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { AggregatorRegistry, prometheusContentType } from 'prom-client';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { createAdminServer, type Readiness } from './admin.ts';
import type { ServiceConfig } from './config.ts';
import { createHandoff } from './connection-handoff.ts';
import { listenerIntake } from './drain.ts';
import { exitAfterLogs, relayLogLines, SECOND_SIGNAL_LOG_WAIT_MS, type Logger } from './logger.ts';
import type { ServiceMetrics } from './metrics.ts';
import { onStopSignals, signalExitCode, type StopSignal } from './signals.ts';

/** What the primary sends a worker to have it drain. */
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

/** Opens a listener: resolves once it listens, and logs `event` with its address. */
export type Listen = (server: NetServer, port: number, host: string, event: string, fields?: object) => Promise<void>;

/**
 * Runs the service as a fleet of `config.webConcurrency` worker processes sharing one port, with
 * node:cluster: this process, the primary, serves no requests. It starts the workers; once all of
 * them serve, it listens on the port and hands every connection it accepts to a worker (see
 * connection-handoff.ts), and reports `listening`. It replaces a worker that dies (one that dies
 * before it ever served means the service cannot start, so the fleet stops); keeps the rate-limit
 * counts the workers share when there is no Redis; serves the admin listener with every worker's
 * metrics; and on SIGTERM or SIGINT drains the fleet, then exits.
 */
export async function runPrimary(config: ServiceConfig, logger: Logger, listen: Listen): Promise<void> {
  // The workers' counts, in this process's memory, when Redis does not keep them.
  if (!config.redisUrl) new RateLimiterClusterMaster();
  const handoff = createHandoff();
  const front = createNetServer({ pauseOnConnect: true }, (socket) => handoff.take(socket));
  const serving = new Set<Worker>();
  const alive = new Set<number>();
  let readiness: Readiness = 'starting';
  let stopping = false;
  let stopSignal: StopSignal | undefined;
  let worstExit = 0;

  if (config.adminPort !== undefined) {
    const admin = createAdminServer({ metrics: { registry: { contentType: prometheusContentType, metrics: () => fleetMetrics([...serving]) } }, readiness: () => readiness });
    await listen(admin, config.adminPort, config.adminHost, 'admin-listening');
  }

  let allServing!: () => void;
  const whenAllServing = new Promise<void>((resolve) => (allServing = resolve));

  // Each worker's log comes here through a pipe of its own and leaves by this process's stdout,
  // whole lines at a time (see relayLogLines). Stderr stays shared: only Node itself writes there.
  cluster.setupPrimary({ stdio: ['inherit', 'pipe', 'inherit', 'ipc'] });
  const start = (): Worker => {
    const worker = cluster.fork();
    if (worker.process.stdout) relayLogLines(worker.process.stdout);
    alive.add(worker.id);
    void handoff.join(worker).then(() => {
      serving.add(worker);
      logger.info({ event: 'worker-listening', worker: worker.id, workerPid: worker.process.pid });
      if (readiness === 'starting' && serving.size === config.webConcurrency) allServing();
      // Ready only once the fleet is stopping (its drain request came while it was starting).
      if (stopping && stopSignal) worker.send({ type: 'drain', signal: stopSignal } satisfies DrainRequest);
    });
    // A connection it had not said it took goes to another worker, once every message it sent has
    // been read: when its channel closes, or, as Node reports no close while a connection sent to
    // the worker is unacknowledged, after the loop's next read of the channel once it has exited.
    worker.once('disconnect', () => handoff.leave(worker));
    worker.once('exit', (code, signal) => {
      setImmediate(() => setImmediate(() => handoff.leave(worker)));
      const everServed = serving.delete(worker);
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
      if (!everServed) {
        // Its own log says why (configuration, packs); another would fail the same way.
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

  // The workers drain at once (their answers say connection: close), while this process goes on
  // accepting for the grace and until its backlog is empty, as a lone server would. Then the
  // listener closes, every connection accepted is handed over, and only then is each worker told
  // that no more will come: none is reset for want of a worker to take it.
  const drainAll = (signal: StopSignal) => {
    stopping = true;
    stopSignal = signal;
    readiness = 'draining';
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker?.isConnected()) worker.send({ type: 'drain', signal } satisfies DrainRequest);
      else worker?.process.kill('SIGTERM');
    }
    const intake = front.listening ? listenerIntake(front).stop(config.drainTimeoutMs) : Promise.resolve();
    void intake.then(() => handoff.finish());
  };

  onStopSignals({
    stop(signal) {
      logger.info({ event: 'stopping', signal, workers: alive.size });
      drainAll(signal);
    },
    stopNow(signal) {
      logger.warn({ event: 'stopped', outcome: 'second-signal', signal });
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      exitAfterLogs(signalExitCode(signal), SECOND_SIGNAL_LOG_WAIT_MS);
    },
  });

  for (let index = 0; index < config.webConcurrency; index++) start();
  await whenAllServing;
  if (stopping) return;
  await listen(front, config.port, config.host, 'listening', { workers: config.webConcurrency });
  readiness = 'ready';
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
