import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectionCounts } from '../../server/limits/connections.ts';
import { money, payFacts } from '../helpers/packs.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// Slow and greedy clients against a real listening server with test-sized connection bounds: while
// a few hundred connections dribble headers or bodies a byte at a time, or sit idle, other clients
// must still be answered promptly; the dribblers must be cut off by the header, body and keep-alive
// timeouts; and the server must never hold more than maxConnections. Bounds on time are generous on
// purpose (a loaded 2-core machine), and lower bounds only where a timeout cannot fire early.

// No per-client limit: every connection here comes from one address, and the limits under test are the timeouts.
const LIMITS = { headersTimeoutMs: 1000, keepAliveTimeoutMs: 500, bodyTimeoutMs: 500, maxConnectionsPerClient: 0 };
/** Node checks header and request deadlines on this interval (server/process/listen.ts), so a cut-off can come this much late. */
const CHECK_INTERVAL_MS = 1000;
/** Slack for a busy machine on top of a deadline; generous, since only gross failures matter here. */
const SLACK_MS = 2000;
/** Other clients must be answered within this while the attack runs (the service's own budget is 5 s). */
const PROMPT_MS = 3000;
const CALCULATE = '/api/v1/calculators/au.pay.take-home/calculate';
const DRIBBLE_EVERY_MS = 50;

type Kind = 'headers' | 'body' | 'idle-keep-alive' | 'silent';

/** One hostile connection and what happened to it. */
interface Attacker {
  kind: Kind;
  socket: Socket;
  openedAt: number;
  /** When the client finished its part: headers sent (body), response read (keep-alive); else when opened. */
  readyAt?: number;
  closedAt?: number;
  received: string;
  /** Bytes sent so far, for the dribblers. */
  sent: number;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Endless header bytes: a request line, then one header line after another, never the blank line that ends them. */
function headerByte(index: number): string {
  const start = `POST ${CALCULATE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n`;
  if (index < start.length) return start[index]!;
  const line = 'x-slow: y\r\n';
  return line[(index - start.length) % line.length]!;
}

function open(port: number, kind: Kind): Attacker {
  const socket = connect(port, '127.0.0.1');
  const attacker: Attacker = { kind, socket, openedAt: now(), received: '', sent: 0 };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    attacker.received += chunk;
    // The keep-alive client has read its whole answer (health is small, one chunk); from here it only idles.
    if (kind === 'idle-keep-alive' && attacker.readyAt === undefined && attacker.received.includes('"status":"ok"')) attacker.readyAt = now();
  });
  socket.on('error', () => undefined); // resets are one of the expected ways to be cut off
  socket.on('close', () => (attacker.closedAt = now()));
  socket.on('connect', () => {
    if (kind === 'body') {
      socket.write(`POST ${CALCULATE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`);
      attacker.readyAt = now();
    }
    if (kind === 'idle-keep-alive') socket.write('GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n');
    if (kind === 'silent') attacker.readyAt = now();
    if (kind === 'headers') attacker.readyAt = now();
  });
  return attacker;
}

/** Sends the next byte on every open dribbling connection: one timer for all of them. */
function dribble(attackers: readonly Attacker[]): void {
  for (const attacker of attackers) {
    if (attacker.closedAt !== undefined || attacker.socket.connecting || attacker.socket.destroyed) continue;
    if (attacker.kind === 'headers') attacker.socket.write(headerByte(attacker.sent++));
    if (attacker.kind === 'body') {
      attacker.socket.write(attacker.sent++ === 0 ? '{' : ' ');
    }
  }
}

interface Probe {
  path: string;
  status: number;
  body: string;
  ms: number;
  /**
   * Processor time this process (server, attackers and probe alike) used meanwhile. On a machine
   * running other work, elapsed time also counts waits for a core; an answer slower than the bound
   * that cost less than it in processor time would have come within it on a machine of its own.
   */
  cpuMs: number;
}

/** One request from a well-behaved client on a fresh connection, so each probe also waits for an accept. */
function probe(url: string, path: string, body?: unknown): Promise<Probe> {
  const started = now();
  const cpu = process.cpuUsage();
  const { hostname, port } = new URL(url);
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: hostname, port, path, method: text === undefined ? 'GET' : 'POST', agent: false, headers: text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (response) => {
        let received = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (received += chunk));
        response.on('end', () => {
          const used = process.cpuUsage(cpu);
          resolve({ path, status: response.statusCode ?? 0, body: received, ms: now() - started, cpuMs: (used.user + used.system) / 1000 });
        });
      },
    );
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`${path}: no answer within 10 s`)));
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}

/** Health, the calculator list and a take-home calculation, one after another, each checked. */
async function wellBehavedRound(url: string): Promise<Probe[]> {
  const health = await probe(url, '/api/health');
  assert.equal(JSON.parse(health.body), { service: 'tax-rules-api', status: 'ok' });
  const calculators = await probe(url, '/api/v1/calculators');
  assert.is(calculators.status, 200, calculators.body.slice(0, 200));
  const calculation = await probe(url, CALCULATE, { facts: payFacts(165400, 'weekly', true) });
  assert.is(calculation.status, 200, calculation.body.slice(0, 200));
  assert.equal(JSON.parse(calculation.body).report.netPay, money(130100));
  return [health, calculators, calculation];
}

/** Polls until every attacker is closed or the time is up. */
async function allClosed(attackers: readonly Attacker[], withinMs: number): Promise<Attacker[]> {
  const deadline = now() + withinMs;
  while (now() < deadline && attackers.some((attacker) => attacker.closedAt === undefined)) await sleep(50);
  return attackers.filter((attacker) => attacker.closedAt === undefined);
}

function connections(server: TestServer): Promise<number> {
  return new Promise((resolve, reject) => server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

const describe = (attacker: Attacker) =>
  `${attacker.kind} opened at ${Math.round(attacker.openedAt)} ms, lived ${Math.round((attacker.closedAt ?? now()) - attacker.openedAt)} ms, received ${JSON.stringify(attacker.received.slice(0, 80))}`;

test('while hundreds of connections dribble or idle, others are answered promptly and the dribblers are cut off', async () => {
  const maxConnections = 300;
  const server = await startTestServer({ config: { ...LIMITS, maxConnections } });
  const { port } = new URL(server.url);
  // Held at all times during the attack: as the server cuts one off, another takes its place.
  const mix: Record<Kind, number> = { headers: 80, body: 60, 'idle-keep-alive': 60, silent: 40 };
  const attackers: Attacker[] = [];
  const live = () => attackers.filter((attacker) => attacker.closedAt === undefined);
  const refill = () => {
    for (const kind of Object.keys(mix) as Kind[]) {
      const missing = mix[kind] - live().filter((attacker) => attacker.kind === kind).length;
      for (let index = 0; index < missing; index++) attackers.push(open(Number(port), kind));
    }
  };
  const probes: { probe: Probe; liveAttackers: number }[] = [];
  let mostHeld = 0;
  try {
    refill();
    const timer = setInterval(() => {
      dribble(attackers);
      refill();
    }, DRIBBLE_EVERY_MS);
    const attackEnds = now() + 2500;
    await sleep(200); // let the attack settle in before measuring others against it
    while (now() < attackEnds) {
      for (const answered of await wellBehavedRound(server.url)) probes.push({ probe: answered, liveAttackers: live().length });
      mostHeld = Math.max(mostHeld, await connections(server));
      await sleep(50);
    }
    clearInterval(timer);
    // No more refills; every attacker left must be cut off by the server within its deadline.
    const survivors = await allClosed(attackers, LIMITS.headersTimeoutMs + CHECK_INTERVAL_MS + SLACK_MS);
    assert.equal(survivors.map(describe), [], 'connections the server never cut off');
  } finally {
    for (const attacker of attackers) attacker.socket.destroy();
    await server.close();
  }

  // Other clients: every answer correct (checked in the round) and prompt, with the attack in full swing.
  assert.ok(probes.length >= 9, `only ${probes.length} well-behaved requests were made`);
  const cost = ({ probe }: { probe: Probe }) => Math.min(probe.ms, probe.cpuMs);
  const slowest = probes.reduce((worst, next) => (cost(next) > cost(worst) ? next : worst));
  assert.ok(cost(slowest) < PROMPT_MS, `${slowest.probe.path} took ${Math.round(slowest.probe.ms)} ms (${Math.round(slowest.probe.cpuMs)} ms of processor time) with ${slowest.liveAttackers} attackers open`);
  // Cut-offs come in batches (deadlines are checked once a second) and are refilled within 50 ms, so
  // the count dips briefly; most requests must still have met the whole attack.
  const held = probes.map((entry) => entry.liveAttackers).sort((a, b) => a - b);
  assert.ok(held[Math.floor(held.length / 2)]! >= 200, `the attack was not in full swing while others were served: ${held.join(' ')}`);
  assert.ok(mostHeld >= 150 && mostHeld <= maxConnections, `the server held at most ${mostHeld} connections`);
  assert.ok(attackers.length >= 400, `only ${attackers.length} attacking connections were opened`);

  // Each kind was cut off by its own deadline, and not before it: the timeouts did it, nothing else.
  for (const attacker of attackers) {
    const afterReady = attacker.closedAt! - (attacker.readyAt ?? attacker.openedAt);
    if (attacker.kind === 'headers' || attacker.kind === 'silent') {
      assert.ok(attacker.received.startsWith('HTTP/1.1 408 '), describe(attacker));
      assert.ok(afterReady >= LIMITS.headersTimeoutMs - 50 && afterReady < LIMITS.headersTimeoutMs + CHECK_INTERVAL_MS + SLACK_MS, describe(attacker));
    }
    if (attacker.kind === 'body') {
      assert.ok(attacker.received.startsWith('HTTP/1.1 408 '), describe(attacker));
      assert.ok(attacker.received.includes('"CalculatorRequestBodyTimedOut"'), describe(attacker));
      assert.ok(afterReady >= LIMITS.bodyTimeoutMs - 50 && afterReady < LIMITS.bodyTimeoutMs + SLACK_MS, describe(attacker));
    }
    if (attacker.kind === 'idle-keep-alive') {
      assert.ok(attacker.readyAt !== undefined && attacker.received.startsWith('HTTP/1.1 200 '), describe(attacker));
      // Closed without a further byte: the idle connection timed out, nothing else answered it.
      assert.is(attacker.received.split('HTTP/1.1 ').length, 2, describe(attacker));
      assert.ok(afterReady >= LIMITS.keepAliveTimeoutMs - 50 && afterReady < LIMITS.keepAliveTimeoutMs + SLACK_MS, describe(attacker));
    }
  }
});

test('over maxConnections a newcomer is answered 503 at once, idle connections are closed to make room, and service resumes', async () => {
  const maxConnections = 200;
  // Timeouts of a minute: nothing but the server being full can close a connection here.
  const server = await startTestServer({ config: { ...LIMITS, headersTimeoutMs: 60_000, keepAliveTimeoutMs: 60_000, maxConnections } });
  const { port } = new URL(server.url);
  const counts = connectionCounts(server.server)!;
  let dropped = 0;
  server.server.on('drop', () => dropped++);
  const holders: Attacker[] = [];
  const until = async (condition: () => boolean, what: string) => {
    for (const deadline = now() + 30_000; !condition(); await sleep(20)) if (now() > deadline) assert.unreachable(`never: ${what}`);
  };
  try {
    for (let index = 0; index < maxConnections; index++) holders.push(open(Number(port), 'idle-keep-alive'));
    await until(() => counts.held() === maxConnections && holders.every((holder) => holder.readyAt !== undefined), 'every place held by an idle keep-alive connection');
    // Full: the newcomer gets the contract's 503 and a close, not a reset and not a wait.
    const newcomer = open(Number(port), 'silent');
    await until(() => newcomer.closedAt !== undefined, 'the newcomer was closed');
    assert.ok(newcomer.received.startsWith('HTTP/1.1 503 '), describe(newcomer));
    assert.ok(newcomer.received.includes('"CalculatorCapacityExceeded"'), describe(newcomer));
    assert.ok(newcomer.closedAt! - newcomer.openedAt < PROMPT_MS, describe(newcomer));
    // The idle connections were closed to make room, without a further byte.
    await until(() => holders.every((holder) => holder.closedAt !== undefined), 'the idle holders were closed');
    for (const holder of holders) assert.is(holder.received.split('HTTP/1.1 ').length, 2, describe(holder));
    assert.is(counts.held(), 0);
    for (const answered of await wellBehavedRound(server.url)) assert.ok(Math.min(answered.ms, answered.cpuMs) < PROMPT_MS, `${answered.path} took ${Math.round(answered.ms)} ms (${Math.round(answered.cpuMs)} ms of processor time)`);
  } finally {
    for (const holder of holders) holder.socket.destroy();
    await server.close();
  }
  assert.is(dropped, 0, 'connections were dropped unanswered');
});

test.run();
