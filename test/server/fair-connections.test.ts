import { fork } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig } from '../../server/process/config.ts';
import { connectionCounts } from '../../server/limits/connections.ts';
import { createSendingBudget } from '../../server/limits/sending-budget.ts';
import { money, payFacts } from '../helpers/packs.ts';
import type { GreedyKind, GreedyOutcome, GreedyPlan } from './greedy-client.ts';
import { startTestServer } from './helpers.ts';

// One client holding far more connections than the server's whole pool must not stop another client
// from being served. Linux answers on all of 127.0.0.0/8, so 127.0.0.1 and 127.0.0.2 are two clients.
// The greedy one, a process of its own, keeps 1,100 connections going for five seconds: silent ones,
// keep-alive ones that ask again every 4 s, and readers that ask for the 1.7 MB viewer bundle and
// never read it; each one closed is opened again. Meanwhile the other asks for health, the calculator
// list and a calculation, one after another, each on a new connection.
const OTHER = '127.0.0.2';
const PER_CLIENT = 256;
/** The other client's bound: every answer within a second, throughout. */
const SERVED_WITHIN_MS = 1000;
/*
 * This machine runs other work, and the greedy client shares its cores, so elapsed time also counts
 * time this process was kept waiting for a core. What the server itself spent before an answer is
 * the processor time this process used meanwhile (the server and the probing client; the attack
 * runs elsewhere): an answer that took longer than the bound must have cost less than the bound in
 * processor time, that is, it would have come within the bound on a machine of its own.
 */
const GREEDY_CLIENT = fileURLToPath(new URL('./greedy-client.ts', import.meta.url));

const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the greedy client; resolves once it has started, with what it will report when done. */
function attack(plan: GreedyPlan): Promise<{ outcome: Promise<Record<GreedyKind, GreedyOutcome>> }> {
  const child = fork(GREEDY_CLIENT, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const outcome = new Promise<Record<GreedyKind, GreedyOutcome>>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Record<GreedyKind, GreedyOutcome>));
    child.once('exit', (code) => reject(new Error(`the greedy client exited with ${code} before reporting`)));
  });
  return new Promise((resolve) => child.once('spawn', () => {
    child.send(plan);
    resolve({ outcome });
  }));
}

/** One request from the other client on a fresh connection, with the time to its whole answer. */
function probe(port: number, path: string, body?: unknown): Promise<{ path: string; status: number; body: string; ms: number; cpuMs: number }> {
  const started = now();
  const cpu = process.cpuUsage();
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        localAddress: OTHER,
        agent: false,
        method: text === undefined ? 'GET' : 'POST',
        headers: text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
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

/** Probes from the other client, one request after another, until `done` settles. */
async function probeUntil(port: number, done: Promise<unknown>): Promise<Awaited<ReturnType<typeof probe>>[]> {
  const probes: Awaited<ReturnType<typeof probe>>[] = [];
  let going = true;
  void done.finally(() => (going = false)).catch(() => undefined);
  while (going) {
    probes.push(await probe(port, '/api/health'));
    probes.push(await probe(port, '/api/v1/calculators'));
    const calculation = await probe(port, '/api/v1/calculators/au.pay.take-home/calculate', { facts: payFacts(165400, 'weekly', true) });
    assert.is(calculation.status, 200, calculation.body.slice(0, 200));
    assert.equal(JSON.parse(calculation.body).report.netPay, money(130100));
    probes.push(calculation);
    await sleep(50);
  }
  return probes;
}

const READER_PLAN = { localAddress: '127.0.0.1', refreshMs: 4000 };

/** Where the viewer's 1.7 MB bundle is served (its name carries a hash of its content), read from the viewer's page. */
async function bundlePath(url: string): Promise<string> {
  const page = await (await fetch(`${url}/api/docs`)).text();
  const path = /src="(\/api\/docs\/assets\/swagger-ui-bundle[^"]*\.js)"/.exec(page)?.[1];
  assert.ok(path, 'the viewer page names no bundle');
  return path;
}

test('one address holding 1,100 connections cannot stop another address from being served within a second', async () => {
  const server = await startTestServer({ config: { maxConnectionsPerClient: PER_CLIENT } });
  const port = Number(new URL(server.url).port);
  let probes: Awaited<ReturnType<typeof probe>>[];
  let outcomes: Record<GreedyKind, GreedyOutcome>;
  const heldForGreedy: number[] = [];
  try {
    const { outcome } = await attack({
      ...READER_PLAN,
      largePath: await bundlePath(server.url),
      port,
      counts: { silent: 400, 'keep-alive': 400, 'slow-reader': 300 },
      attackMs: 5000,
      reopenAfterMs: 1000,
      readerRequests: 1,
    });
    const sampling = setInterval(() => heldForGreedy.push(connectionCounts(server.server)!.heldFor('127.0.0.1')), 100);
    probes = await probeUntil(port, outcome);
    clearInterval(sampling);
    outcomes = await outcome;
  } finally {
    await server.close();
  }

  const timings = probes.map((entry) => `${Math.round(entry.ms)}/${Math.round(entry.cpuMs)}`).join(' ');
  for (const answered of probes) {
    assert.is(answered.status, 200, `${answered.path}: ${answered.body.slice(0, 200)}`);
    assert.ok(Math.min(answered.ms, answered.cpuMs) < SERVED_WITHIN_MS, `${answered.path} took ${Math.round(answered.ms)} ms; elapsed/processor ms: ${timings}`);
  }
  assert.ok(probes.length >= 12, `only ${probes.length} requests from the other client`);

  const kinds = Object.values(outcomes);
  const summary = `${JSON.stringify(outcomes)}; held: ${heldForGreedy.join(' ')}`;
  // The greedy client held its share and no more, the share had every kind in it, and the attack never let up.
  assert.is(Math.max(...heldForGreedy), PER_CLIENT, summary);
  assert.ok(outcomes['keep-alive'].admitted > 0 && outcomes['slow-reader'].admitted > 0, summary);
  assert.ok(kinds.reduce((sum, kind) => sum + kind.opened, 0) > 1100, summary);
  // Everything over its share was answered with a 503, never reset unanswered.
  for (const kind of kinds) {
    assert.ok(kind.refused > 0, summary);
    assert.is(kind.resetUnanswered, 0, summary);
  }
});

test('a reader that stops reading is cut off when writing its answers takes longer than the write deadline', async () => {
  const writeTimeoutMs = 1000;
  // A sending budget large enough for every one of the 32 bundles: the write deadline is under test here, not the budget.
  const sendingBudget = createSendingBudget({ totalBytesPerSecond: 1e9, perClientBytesPerSecond: 1e9, maxClients: 1 });
  const server = await startTestServer({ config: { responseWriteTimeoutMs: writeTimeoutMs }, deps: { sendingBudget } });
  try {
    // Eight bundles at once are more than the kernel's socket buffers take, so the server's writes back up.
    const { outcome } = await attack({
      ...READER_PLAN,
      largePath: await bundlePath(server.url),
      port: Number(new URL(server.url).port),
      counts: { silent: 0, 'keep-alive': 0, 'slow-reader': 4 },
      attackMs: writeTimeoutMs * 3,
      reopenAfterMs: 60_000,
      readerRequests: 8,
    });
    const readers = (await outcome)['slow-reader'];
    assert.equal(readers, { opened: 4, refused: 0, admitted: 4, resetUnanswered: readers.resetUnanswered, cutOff: 4, completed: 0 });
  } finally {
    await server.close();
  }
});

test('the per-client connection limit is off behind trusted proxies, where the peer is a proxy, unless it is set', () => {
  assert.is(readConfig({}).maxConnectionsPerClient, PER_CLIENT);
  assert.is(readConfig({ TRUST_PROXY: '1' }).maxConnectionsPerClient, 0);
  assert.is(readConfig({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_CLIENT: '64' }).maxConnectionsPerClient, 64);
});

test.run();
