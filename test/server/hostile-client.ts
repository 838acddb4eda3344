import { connect, type Socket } from 'node:net';

/**
 * A hostile client, run as a process of its own so that its work does not slow the server under
 * test: from one local address it keeps `connections` connections busy, each sending its next request
 * as soon as the last is answered (and opening a new connection when the server closes one), then
 * reports the statuses it got.
 *   - `query-bomb`: health and calculate requests with a query of 3,500 repeated `a=1&` pairs;
 *   - `search`: documentation searches, each for a term never asked before, made of the short words
 *     that cost a search the most.
 */
export interface HostilePlan {
  port: number;
  localAddress: string;
  kind: HostileKind;
  connections: number;
  attackMs: number;
}

export type HostileKind = 'query-bomb' | 'search';

/** What the server answered: counts by status ('reset' for a connection ended without an answer). */
export type HostileOutcome = Record<string, number>;

const BOMB = 'a=1&'.repeat(3500);
const CALCULATE_BODY = JSON.stringify({ facts: {} });

let searches = 0;
/** Eight short words, different every time: every search is new to the server's cache. */
function uniqueTerm(): string {
  searches++;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words = Array.from({ length: 7 }, () => letters[Math.floor(Math.random() * letters.length)]!);
  return [...words, searches.toString(36)].join(' ');
}

function nextRequest(kind: HostileKind, count: number): string {
  if (kind === 'search') return `GET /api/v1/docs/search?term=${encodeURIComponent(uniqueTerm())} HTTP/1.1\r\nhost: x\r\n\r\n`;
  if (count % 2 === 0) return `GET /api/health?${BOMB} HTTP/1.1\r\nhost: x\r\n\r\n`;
  return `POST /api/v1/calculators/au.pay.take-home/calculate?${BOMB} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${CALCULATE_BODY.length}\r\n\r\n${CALCULATE_BODY}`;
}

/**
 * Starts the attack; it ends after `plan.attackMs`, or sooner when `stop` is called. `underWay`
 * resolves once the server has answered as many requests as there are connections.
 */
export function runHostile(plan: HostilePlan): { underWay: Promise<void>; outcome: Promise<HostileOutcome>; stop(): void } {
  const outcome: HostileOutcome = {};
  let answered = 0;
  let markUnderWay!: () => void;
  const underWay = new Promise<void>((resolve) => (markUnderWay = resolve));
  const count = (what: string) => {
    outcome[what] = (outcome[what] ?? 0) + 1;
    if (++answered === plan.connections) markUnderWay();
  };
  let attacking = true;
  let sent = 0;
  const sockets = new Set<Socket>();

  const open = () => {
    const socket = connect({ port: plan.port, host: '127.0.0.1', localAddress: plan.localAddress });
    sockets.add(socket);
    let pending = Buffer.alloc(0);
    let waiting = false;
    const send = () => {
      if (!attacking) return;
      waiting = true;
      socket.write(nextRequest(plan.kind, sent++));
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.subarray(0, headEnd).toString('latin1');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < headEnd + 4 + length) return;
        pending = pending.subarray(headEnd + 4 + length);
        count(head.slice(9, 12));
        waiting = false;
        if (/\r\nconnection: *close/i.test(head)) return;
        send();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (waiting && attacking) count('reset');
      if (attacking) open();
    });
  };
  for (let index = 0; index < plan.connections; index++) open();

  let stop!: () => void;
  const ended = new Promise<HostileOutcome>((resolve) => {
    stop = () => {
      if (!attacking) return;
      attacking = false;
      clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(stop, plan.attackMs);
  });
  return { underWay, outcome: ended, stop };
}

// Told the plan, then `stop`, by the process that forked this one; tells it `under-way`, then the outcome.
if (process.send) {
  let attack: ReturnType<typeof runHostile> | undefined;
  process.on('message', (message: HostilePlan | 'stop') => {
    if (message === 'stop') return attack?.stop();
    attack = runHostile(message);
    void attack.underWay.then(() => process.send!('under-way'));
    void attack.outcome.then((outcome) => process.send!(outcome, () => process.disconnect()));
  });
}
