import { request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN_LIMITS, createAdminServer } from '../../server/process/admin.ts';

// Connections that dribble header lines to the admin port, from one address and from many, must not
// keep an orchestrator's /livez out, and each is cut off soon after its head is overdue. Linux
// answers on all of 127.0.0.0/8, so each 127.0.0.x is a client of its own.

const PROBE_FROM = '127.0.0.2';
const DRIBBLE_EVERY_MS = 300;
/** The longest a dribbler may live: its head's deadline, the check that finds it overdue, and slack for a busy machine. */
const CUT_OFF_WITHIN_MS = ADMIN_LIMITS.headersTimeoutMs + ADMIN_LIMITS.checkEveryMs + 1000;

interface Dribbler {
  socket: Socket;
  openedAt: number;
  closedAt?: number;
  received: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startAdmin(): Promise<{ server: Server; port: number }> {
  const server = createAdminServer({ metrics: { registry: { metrics: async () => '', contentType: 'text/plain' } }, readiness: () => 'ready' });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port })));
}

function dribble(port: number, localAddress: string): Dribbler {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  const dribbler: Dribbler = { socket, openedAt: performance.now(), received: '' };
  socket.on('connect', () => socket.write('GET /livez HTTP/1.1\r\nhost: x\r\n'));
  socket.on('data', (chunk: Buffer) => (dribbler.received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (dribbler.closedAt = performance.now()));
  return dribbler;
}

/** /livez from the probing address on a connection of its own: its status, or 0 for a reset or no answer within 5 s (a busy machine's worst, not the listener's). */
function livez(port: number): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request({ host: '127.0.0.1', port, path: '/livez', localAddress: PROBE_FROM, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.setTimeout(5000, () => outgoing.destroy());
    outgoing.on('error', () => resolve(0));
    outgoing.end();
  });
}

test('under 70 dribbling connections from one address and 70 from ten others, /livez from another address is answered 200 throughout', async () => {
  const { server, port } = await startAdmin();
  const dribblers: Dribbler[] = [];
  const addresses = ['127.0.0.1', ...Array.from({ length: 10 }, (_, index) => `127.0.0.${index + 10}`)];
  // Each address keeps its count of connections open: 70 from the first, 7 from each of the others.
  const wanted = (address: string) => (address === '127.0.0.1' ? 70 : 7);
  const refill = () => {
    for (const address of addresses) {
      const open = dribblers.filter((dribbler) => dribbler.closedAt === undefined && dribbler.socket.localAddress === address).length;
      for (let index = open; index < wanted(address); index++) dribblers.push(dribble(port, address));
    }
  };
  const statuses: number[] = [];
  try {
    refill();
    const timer = setInterval(() => {
      for (const dribbler of dribblers) if (dribbler.closedAt === undefined && !dribbler.socket.connecting) dribbler.socket.write('x-dribble: 1\r\n');
      refill();
    }, DRIBBLE_EVERY_MS);
    await sleep(ADMIN_LIMITS.evictWaitingAfterMs + 200);
    for (const until = performance.now() + 4000; performance.now() < until; await sleep(200)) statuses.push(await livez(port));
    clearInterval(timer);
    await sleep(CUT_OFF_WITHIN_MS);
  } finally {
    for (const dribbler of dribblers) dribbler.socket.destroy();
    server.close();
  }
  assert.ok(statuses.length >= 10, `only ${statuses.length} probes`);
  assert.equal(statuses.filter((status) => status !== 200), [], `statuses of /livez: ${statuses.join(' ')}`);
  // Every dribbler was cut off on time (answered 408 at its deadline, or closed to make room, or refused 503 at once).
  const late = dribblers.filter((dribbler) => (dribbler.closedAt ?? Infinity) - dribbler.openedAt > CUT_OFF_WITHIN_MS);
  assert.equal(late.map((dribbler) => `${dribbler.socket.localAddress} lived ${Math.round((dribbler.closedAt ?? performance.now()) - dribbler.openedAt)} ms, got ${JSON.stringify(dribbler.received.slice(0, 60))}`), []);
  const refused = dribblers.filter((dribbler) => dribbler.received.startsWith('HTTP/1.1 503'));
  assert.ok(refused.length > 0 && refused.every((dribbler) => dribbler.received.includes('{"status":"too many connections"}')), 'refusals are answered in the admin listener\'s shape');
  assert.ok(dribblers.some((dribbler) => dribbler.received.startsWith('HTTP/1.1 408')), 'overdue heads are answered 408');
});

test.run();
