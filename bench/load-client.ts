import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { nextRequest, type PlannedRequest } from './load-traffic.ts';

/** How one level of load is run: closed loop, `concurrency` clients each with one request in flight. */
export interface LevelPlan {
  url: string;
  concurrency: number;
  /** The level stops at whichever comes first: this much time or this many requests. */
  durationMs: number;
  maxRequests: number;
  seed: number;
  /** A request not answered within this is counted as a client error (`timeout`) and abandoned. */
  requestTimeoutMs?: number;
  /**
   * Most calculations the clients keep in flight at once; undefined for no limit. The service has no
   * queue (a calculation beyond its places gets 503 by contract), so clients that want only 200s must
   * not hold more than the pool; a client that would go over sends its next non-calculation request
   * instead, which keeps every connection busy.
   */
  calcSlots?: number;
  /** What each client sends next; the mixed traffic of `nextRequest` unless given. Not with `calcSlots`. */
  traffic?: (random: () => number) => PlannedRequest;
}

/** What one level came to, from the client's side. */
export interface LevelOutcome {
  concurrency: number;
  requests: number;
  elapsedMs: number;
  /** Latency of every answered request, in ms, sorted ascending. */
  latencies: Float64Array;
  /** Answers by status code; client-side failures (resets, timeouts) under `error:<code>`. */
  statuses: Record<string, number>;
  /** Every answer that was not a 200, by request kind, status and error tag. */
  refusals: Record<string, number>;
  /** Calculations sent, of all requests, and how many of them were answered 200. */
  calculations: number;
  calculationsOk: number;
  /** The slowest answer: what it was and when in the level it was sent, to tell start-up stalls from steady ones. */
  slowest: { kind: string; sentAtMs: number; latencyMs: number; reusedSocket: boolean; connectMs?: number } | undefined;
}

/** The answer to one request, as far as the bench reads it. */
export interface Answer {
  status: number;
  tag?: string;
  /** False when the request had to open a new connection. */
  reusedSocket: boolean;
  /** For a new connection, ms from sending until the TCP handshake completed. */
  connectMs?: number;
}

/** Sends one request over the agent; reads the body only when it is not a 200, to learn the error tag. */
export function send(agent: Agent, base: URL, planned: PlannedRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (planned.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(planned.body);
    }
    const started = performance.now();
    let connectMs: number | undefined;
    const outgoing = request({ agent, host: base.hostname, port: base.port, method: planned.method, path: planned.path, headers }, (response) => {
      const status = response.statusCode ?? 0;
      if (status === 200) {
        response.resume();
        response.once('end', () => resolve({ status, reusedSocket: outgoing.reusedSocket, connectMs }));
      } else {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () => resolve({ status, tag: tagOf(text), reusedSocket: outgoing.reusedSocket, connectMs }));
      }
      response.once('error', reject);
    });
    outgoing.once('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connectMs = performance.now() - started));
    });
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(Object.assign(new Error('no answer in time'), { code: 'timeout' })));
    outgoing.once('error', reject);
    outgoing.end(planned.body);
  });
}

function tagOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { _tag?: unknown }; _tag?: unknown };
    return String((body.error ?? body)._tag ?? 'untagged');
  } catch {
    return 'not-json';
  }
}

/** Runs one level: every client sends, waits for the whole answer, and sends again until time or count runs out. */
export async function runLevel(plan: LevelPlan): Promise<LevelOutcome> {
  // Held-back clients fall back to the mixed traffic's other requests, which another mix may not have.
  if (plan.traffic && plan.calcSlots !== undefined) throw new Error('a level with its own traffic cannot hold calculations back');
  const traffic = plan.traffic ?? nextRequest;
  const base = new URL(plan.url);
  // One socket per client, kept alive, as a fleet of keep-alive clients would hold them.
  const agent = new Agent({ keepAlive: true, maxSockets: plan.concurrency, maxFreeSockets: plan.concurrency });
  const timeoutMs = plan.requestTimeoutMs ?? 10_000;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  const count = (into: Record<string, number>, key: string) => (into[key] = (into[key] ?? 0) + 1);
  let issued = 0;
  let calculations = 0;
  let calculationsOk = 0;
  let slowest: LevelOutcome['slowest'];
  let calcsInFlight = 0;
  const slots = plan.calcSlots ?? Number.POSITIVE_INFINITY;
  const started = performance.now();
  const deadline = started + plan.durationMs;

  const client = async (index: number) => {
    const random = seededRandom(plan.seed * 1000 + index);
    while (issued < plan.maxRequests && performance.now() < deadline) {
      issued++;
      let planned = traffic(random);
      while (planned.calculation && calcsInFlight >= slots) planned = nextRequest(random);
      if (planned.calculation) {
        calculations++;
        calcsInFlight++;
      }
      const sent = performance.now();
      try {
        const answer = await send(agent, base, planned, timeoutMs);
        const latencyMs = performance.now() - sent;
        latencies.push(latencyMs);
        if (!slowest || latencyMs > slowest.latencyMs) slowest = { kind: planned.kind, sentAtMs: sent - started, latencyMs, reusedSocket: answer.reusedSocket, ...(answer.connectMs === undefined ? {} : { connectMs: answer.connectMs }) };
        count(statuses, String(answer.status));
        if (planned.calculation && answer.status === 200) calculationsOk++;
        if (answer.status !== 200) count(refusals, `${planned.kind} -> ${answer.status} ${answer.tag}`);
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'unknown';
        count(statuses, `error:${code}`);
        count(refusals, `${planned.kind} -> error:${code}`);
      } finally {
        // Released only once the whole answer is in: the server gave its place back before answering.
        if (planned.calculation) calcsInFlight--;
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, (_, index) => client(index)));
  const elapsedMs = performance.now() - started;
  // Close every kept-alive socket so the server's end-of-level memory reading holds no connections.
  agent.destroy();
  return { concurrency: plan.concurrency, requests: issued, elapsedMs, latencies: Float64Array.from(latencies).sort(), statuses, refusals, calculations, calculationsOk, slowest };
}

/** The value at quantile q (0..1) of sorted values, nearest rank; 0 when there are none. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
