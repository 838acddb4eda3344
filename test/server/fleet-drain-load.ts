import { money } from '../helpers/packs.ts';
import { startService, stopService } from '../helpers/service-process.ts';
import { clockNow, startLoadClient, type LoadRecord } from './load-client-process.ts';

/** The load a fleet is stopped under: kept-alive connections, each sending its next request on its answer, and a stream of new connections. */
export interface DrainLoad {
  workers: number;
  keptAlive: number;
  /** A new connection, with one request, every this many milliseconds. */
  newConnectionEveryMs: number;
  /** How long the load runs before the SIGTERM. */
  loadMs: number;
}

/** A request written before the signal that got no answer: how long before the signal it was written, and what the client saw. */
export interface LostRequest {
  connection: LoadRecord['connection'];
  writtenBeforeSignalMs: number;
  error: string;
}

export interface DrainRun {
  exitCode: number | null;
  /** Requests wholly written before the signal, on kept-alive and on new connections. */
  writtenBeforeSignal: { keptAlive: number; new: number };
  /** Of those, the ones reset or closed without an answer. */
  lost: LostRequest[];
  /** Of those, the ones answered with other than 2xx. */
  notOk: number;
  /** Requests still waiting for an answer or a close 5 s after the fleet exited. */
  hanging: number;
  output: string;
}

const PATH = '/api/v1/calculators/au.income-tax.annual/calculate';
const BODY = JSON.stringify({ facts: { taxableIncome: money(9_000_000) } });

/**
 * Starts `npm start`'s command with `workers` workers, puts it under `load`, sends SIGTERM, and
 * reports what became of every request written before the signal. No rate limit, no limit on one
 * client's connections and no load shedding: what is under test is that every request sent before
 * the signal is answered.
 */
export async function drainUnderLoad(load: DrainLoad): Promise<DrainRun> {
  const service = await startService({ WEB_CONCURRENCY: String(load.workers), RATE_LIMIT_MAX: '0', MAX_CONNECTIONS_PER_CLIENT: '0' });
  try {
    // Two client processes, so that the kept-alive connections' work does not hold back the stream of new ones.
    const clients = [
      startLoadClient({ url: service.url, path: PATH, method: 'POST', body: BODY, keptAlive: load.keptAlive, newConnectionEveryMs: 0 }),
      startLoadClient({ url: service.url, path: PATH, method: 'POST', body: BODY, keptAlive: 0, newConnectionEveryMs: load.newConnectionEveryMs }),
    ];
    await Promise.all(clients.map((client) => client.warmedUp));
    await new Promise((resolve) => setTimeout(resolve, load.loadMs));
    const signalAt = clockNow();
    service.child.kill('SIGTERM');
    const exitCode = await service.exited;
    const records = (await Promise.all(clients.map((client) => client.stop(5000)))).flatMap((report) => report.records);

    const before = records.filter((record) => record.writtenAt !== undefined && record.writtenAt < signalAt);
    const lost = before
      .filter((record) => record.endedAt !== undefined && record.status === undefined)
      .map((record) => ({ connection: record.connection, writtenBeforeSignalMs: Math.round(signalAt - record.writtenAt!), error: record.error ?? 'no answer' }));
    return {
      exitCode,
      writtenBeforeSignal: { keptAlive: before.filter((record) => record.connection === 'kept-alive').length, new: before.filter((record) => record.connection === 'new').length },
      lost,
      notOk: before.filter((record) => record.status !== undefined && (record.status < 200 || record.status >= 300)).length,
      hanging: records.filter((record) => record.endedAt === undefined).length,
      output: service.output(),
    };
  } finally {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await stopService(service);
  }
}
