import { fork } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { money, payFacts } from '../helpers/packs.ts';
import { startService, stopService } from '../helpers/service-process.ts';
import type { HostileKind, HostileOutcome, HostilePlan } from './hostile-client.ts';

// One address attacks the service as `npm start` runs it; another asks for calculations and health
// meanwhile. Linux answers on all of 127.0.0.0/8, so 127.0.0.1 and 127.0.0.2 are two clients.

const ATTACKER = '127.0.0.1';
const OTHER = '127.0.0.2';
const HOSTILE_CLIENT = fileURLToPath(new URL('./hostile-client.ts', import.meta.url));
/** How long the attack runs, once the server has answered it on every connection, before the other client starts asking. */
const WARM_UP_MS = 1000;
/** The longest the attacker may take to start (a process of its own, compiled by tsx, on a busy machine). */
const ATTACKER_START_MS = 60_000;

export interface HostileRun {
  kind: HostileKind;
  connections: number;
  /** Settings of the service besides the defaults of `npm start`, such as WEB_CONCURRENCY. */
  env?: Record<string, string>;
  /** Calculations the other client asks for, one after another; each is followed by two health checks. */
  calculations: number;
}

export interface HostileResult {
  /** The status of each of the other client's calculations, and the take-home pay of those answered 200. */
  calculations: { status: number; netPayCents?: number; refusedWith?: string }[];
  /** Statuses and times of the other client's health checks. */
  health: { status: number; ms: number }[];
  /** What the attacker got. */
  attacker: HostileOutcome;
}

/** One request from the other client on a connection of its own: status, body and time to the whole answer. */
function ask(port: number, path: string, body?: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress: OTHER,
        agent: false,
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, ms: performance.now() - started }));
      },
    );
    // A request with no answer is a failure of its own, status 0, not a hang of the whole run.
    outgoing.setTimeout(15_000, () => outgoing.destroy());
    outgoing.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
    outgoing.end(body);
  });
}

/** The service under `run.connections` connections of the attack from one address, and what another address got meanwhile. */
export async function underAttack(run: HostileRun): Promise<HostileResult> {
  // `npm start`'s own limits: load shedding and the rate limit as shipped.
  const service = await startService({ CALC_CONCURRENCY: '8', MAX_EVENT_LOOP_DELAY_MS: '100', ...run.env });
  const port = Number(new URL(service.url).port);
  const child = fork(HOSTILE_CLIENT, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    let underWay!: () => void;
    const started = new Promise<void>((resolve) => (underWay = resolve));
    const reported = new Promise<HostileOutcome>((resolve, reject) => {
      child.on('message', (message) => (message === 'under-way' ? underWay() : resolve(message as HostileOutcome)));
      child.once('exit', (code) => reject(new Error(`the hostile client exited with ${code} before reporting`)));
    });
    // Not a rejection left unheard if the run fails before it asks for the outcome.
    reported.catch(() => undefined);
    await new Promise<void>((resolve) => child.once('spawn', resolve));
    // The attack lasts until the other client is done: told by a message, not a guess at how long that takes.
    child.send({ port, localAddress: ATTACKER, kind: run.kind, connections: run.connections, attackMs: 180_000 } satisfies HostilePlan);
    // The other client starts asking only once the attack is answered on every connection, and a while after.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([started, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the attack never got under way')), ATTACKER_START_MS)))]);
    clearTimeout(timer);
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));

    const body = JSON.stringify({ facts: payFacts(165400, 'weekly', true) });
    const calculations: HostileResult['calculations'] = [];
    const health: HostileResult['health'] = [];
    for (let index = 0; index < run.calculations; index++) {
      const answer = await ask(port, '/api/v1/calculators/au.pay.take-home/calculate', body);
      calculations.push(
        answer.status === 200
          ? { status: answer.status, netPayCents: (JSON.parse(answer.body) as { report: { netPay: { cents: number } } }).report.netPay.cents }
          : { status: answer.status, refusedWith: /"_tag":"(\w+)"/.exec(answer.body)?.[1] ?? 'no error body' },
      );
      for (let check = 0; check < 2; check++) {
        const { status, ms } = await ask(port, '/api/health');
        health.push({ status, ms });
      }
    }
    child.send('stop');
    return { calculations, health, attacker: await reported };
  } finally {
    if (child.exitCode === null) child.kill();
    await stopService(service);
  }
}

/** The median of some durations. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** What the take-home calculation in `underAttack` must answer, from the published weekly tables. */
export const EXPECTED_NET_PAY = money(130100).cents;
