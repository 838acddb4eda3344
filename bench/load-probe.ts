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
}

/** What the trickle came to. */
export interface ProbeOutcome {
  path: string;
  sent: number;
  /** Latency of every answered request, in ms, sorted ascending. */
  latencies: number[];
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
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const timeoutMs = plan.requestTimeoutMs ?? 10_000;
  const intervalMs = 1000 / plan.perSecond;
  const latencies: number[] = [];
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
          latencies.push(performance.now() - sent);
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
  return { path: plan.path, sent: pending.length, latencies: latencies.sort((a, b) => a - b), statuses, sendLagMaxMs };
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
