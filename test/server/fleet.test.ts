import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { delimiter } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig } from '../../server/config.ts';
import { money, payFacts, SHIPPED_PACKS } from '../helpers/packs.ts';
import { startService, stopService, type ServiceProcess } from '../helpers/service-process.ts';
import { writeSlowPack } from './slow-pack.ts';

// The service as a fleet of worker processes on one port (WEB_CONCURRENCY=2), without Redis: the
// workers share one rate limit through the primary, a worker that dies is replaced, and SIGTERM to
// the primary drains every worker.

/** Log lines of a service, parsed. */
function lines(service: ServiceProcess): Record<string, unknown>[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A POST on a connection of its own (so the primary hands each to the next worker), or on the one an
 * agent keeps; `written` settles once it is all sent.
 */
function post(url: string, body: string, agent: Agent | false = false): { written: Promise<void>; answer: Promise<{ status: number; body: string }> } {
  let written!: Promise<void>;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    written = new Promise((done) => outgoing.end(body, () => done()));
  });
  return { written, answer };
}

/** A GET on the connection an agent keeps: its status. */
function fetchOn(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** Workers that answered health checks, by id, from the request log lines. */
function healthWorkers(service: ServiceProcess): Set<unknown> {
  return new Set(lines(service).filter((line) => line.event === 'request' && line.route === '/api/health').map((line) => line.worker));
}

const takeHome = (url: string) => post(`${url}/api/v1/calculators/au.pay.take-home/calculate`, JSON.stringify({ facts: payFacts(165400, 'weekly', true) })).answer;

/** Workers that answered calculate requests, by id, from the request log lines. */
function answeringWorkers(service: ServiceProcess): Set<unknown> {
  return new Set(lines(service).filter((line) => line.event === 'request' && String(line.route).endsWith('/calculate')).map((line) => line.worker));
}

const until = async (condition: () => boolean, what: string) => {
  for (const deadline = performance.now() + 60_000; !condition(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (performance.now() > deadline) assert.unreachable(`never: ${what}`);
  }
};

test('WEB_CONCURRENCY: unset or 0 is one process, auto one per core, anything else a clear error', () => {
  assert.is(readConfig({}).webConcurrency, 1);
  assert.is(readConfig({ WEB_CONCURRENCY: '0' }).webConcurrency, 1);
  assert.is(readConfig({ WEB_CONCURRENCY: '3' }).webConcurrency, 3);
  assert.is(readConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency, availableParallelism());
  assert.throws(() => readConfig({ WEB_CONCURRENCY: 'lots' }), /WEB_CONCURRENCY must be auto or a whole number from 0 to 256/);
});

test('two workers without Redis: requests reach both, the limit is 10 in all, and a killed worker is replaced', async () => {
  const service = await startService({ WEB_CONCURRENCY: '2', RATE_LIMIT_MAX: '10' });
  try {
    const statuses: number[] = [];
    for (let index = 0; index < 30; index++) statuses.push((await takeHome(service.url)).status);
    assert.is(statuses.filter((status) => status === 200).length, 10, statuses.join(' '));
    assert.is(statuses.filter((status) => status === 429).length, 20, statuses.join(' '));
    await until(() => answeringWorkers(service).size === 2, 'request lines from both workers');

    const first = lines(service).find((line) => line.event === 'worker-listening')!;
    process.kill(first.workerPid as number, 'SIGKILL');
    await until(() => lines(service).some((line) => line.event === 'worker-died' && line.worker === first.worker), 'the primary saw the worker die');
    await until(() => lines(service).filter((line) => line.event === 'worker-listening').length === 3, 'a third worker listening');
    // The fleet answers, from the new worker too (this client's limit is spent, so the answers are 429s).
    const replacement = lines(service).filter((line) => line.event === 'worker-listening').at(-1)!.worker;
    for (let sent = 0; !answeringWorkers(service).has(replacement); sent++) {
      assert.ok(sent < 40, 'the new worker never answered');
      assert.is((await takeHome(service.url)).status, 429);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await stopService(service);
  }
  assert.not.match(service.output(), /unexpected-failure|"status":500/);
});

test('SIGTERM to the primary drains every worker: requests in flight on both are answered, then the fleet exits 0', async () => {
  const slowPack = writeSlowPack(20, 600);
  const service = await startService({ WEB_CONCURRENCY: '2', RULEPACKS_DIR: [SHIPPED_PACKS, slowPack].join(delimiter) });
  const connections = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
  try {
    const body = JSON.stringify({ facts: { step0: money(100_000_000) } });
    // Two kept-alive connections, each first answered by a worker: the primary hands connections to
    // workers in turn, so one is held by each. What is sent on them next is in a worker's hands, not
    // still in the primary's backlog, when the signal comes.
    const held = await Promise.all(connections.map((agent) => fetchOn(agent, `${service.url}/api/health`)));
    assert.equal(held, [200, 200]);
    await until(() => healthWorkers(service).size === 2, 'each connection held by a different worker');
    const inFlight = connections.map((agent) => post(`${service.url}/api/v1/calculators/test.slow/calculate`, body, agent));
    await Promise.all(inFlight.map((one) => one.written));
    service.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight.map((one) => one.answer));
    assert.equal(answers.map((answer) => answer.status), [200, 200]);
    assert.is(await service.exited, 0);
    const stopped = lines(service).filter((line) => line.event === 'worker-stopped');
    assert.equal(stopped.map((line) => line.code), [0, 0]);
    assert.equal(
      lines(service).filter((line) => line.event === 'stopped').map((line) => line.outcome),
      ['drained', 'drained', 'drained'],
    );
    assert.is(answeringWorkers(service).size, 2);
  } finally {
    for (const agent of connections) agent.destroy();
    await stopService(service);
    rmSync(slowPack, { recursive: true, force: true });
  }
});

test.run();
