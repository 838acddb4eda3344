import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { send } from './load-client.ts';

/** A steady trickle of one light request, as a client that only wants a quick answer would send it. */
export interface ProbePlan {
  url: string;
  /** A GET path, e.g. the calculator catalog. */
  path: string;
  perSecond: number;
  durationMs: number;
  requestTimeoutMs?: number;
  /** The address it sends from: 127.0.0.2 unless given. */
  localAddress?: string;
}

/** What the trickle came to. */
export interface ProbeOutcome {
  path: string;
  sent: number;
  /** Latency of every answered request, in ms, sorted ascending. */
  latencies: number[];
  /** Latency of the answered requests that had to open a connection (the earlier ones were all still busy), sorted ascending. */
  newConnectionLatencies: number[];
  /** Answers by status code; client-side failures under `error:<code>`. */
  statuses: Record<string, number>;
  /** How late the probe itself sent its most delayed request: large values mean the probe was starved, not the service. */
  sendLagMaxMs: number;
}

/**
 * Sends the request on a fixed schedule whatever happens to earlier ones (an open loop), so a slow
 * answer delays no later request and the latencies are the service's, not the queue's behind it.
 */
export async function runProbe(plan: ProbePlan): Promise<ProbeOutcome> {
  const base = new URL(plan.url);
  // As many sockets as it takes: a request must not wait for an earlier one's socket. From another
  // loopback address (Linux answers on all of 127.0.0.0/8), so the service counts it as another
  // client, not against the flood's share of connections.
  const agent = new Agent({ keepAlive: true, localAddress: plan.localAddress ?? '127.0.0.2' });
  const timeoutMs = plan.requestTimeoutMs ?? 10_000;
  const intervalMs = 1000 / plan.perSecond;
  const latencies: number[] = [];
  const newConnectionLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  const count = (key: string) => (statuses[key] = (statuses[key] ?? 0) + 1);
  const pending: Promise<void>[] = [];
  let sendLagMaxMs = 0;
  const started = performance.now();
  for (let index = 0; index * intervalMs < plan.durationMs; index++) {
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    sendLagMaxMs = Math.max(sendLagMaxMs, sent - due);
    pending.push(
      send(agent, base, { kind: 'probe', method: 'GET', path: plan.path, calculation: false }, timeoutMs).then(
        (answer) => {
          const latency = performance.now() - sent;
          latencies.push(latency);
          if (!answer.reusedSocket) newConnectionLatencies.push(latency);
          count(String(answer.status));
        },
        (error: { code?: string }) => {
          count(`error:${error.code ?? 'unknown'}`);
        },
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  const ascending = (a: number, b: number) => a - b;
  return { path: plan.path, sent: pending.length, latencies: latencies.sort(ascending), newConnectionLatencies: newConnectionLatencies.sort(ascending), statuses, sendLagMaxMs };
}

const PROBE_PROCESS = fileURLToPath(new URL('./load-probe-process.ts', import.meta.url));

/** A probe in a process of its own, ready to run plans one after another. */
export interface ProbeProcess {
  run(plan: ProbePlan): Promise<ProbeOutcome>;
  close(): void;
}

/**
 * Starts a process for the probe: another client, whose timers a flood sent from this process
 * cannot delay. Resolves once it is ready, so a run starts when it is asked to.
 */
export function startProbeProcess(): Promise<ProbeProcess> {
  const child = fork(PROBE_PROCESS, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the probe process exited with ${code}`))));
  exited.catch(() => undefined);
  const next = () => Promise.race([new Promise<unknown>((resolve) => child.once('message', resolve)), exited]);
  return next().then(() => ({
    run: (plan) => {
      const answer = next() as Promise<ProbeOutcome>;
      child.send(plan);
      return answer;
    },
    close: () => child.disconnect(),
  }));
}
