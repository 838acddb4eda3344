// Lane: services (npm run test:fast leaves this file out).
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { availableParallelism } from 'node:os';
import { readlinkSync, rmSync } from 'node:fs';
import { delimiter } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { procUnavailable, testOr } from '../helpers/skip.ts';
import { readConfig } from '../../server/process/config.ts';
import { money, payFacts, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';
import { buildOnce, logLines, serviceEnvironment, startService, stopService, type ServiceProcess } from '../helpers/service-process.ts';
import { writeSlowPack } from './slow-pack.ts';

// The service as a fleet of worker processes on one port (WEB_CONCURRENCY=2), without Redis: the
// workers share one rate limit through the primary, a worker that dies is replaced, and SIGTERM to
// the primary drains every worker.


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
  return new Set(logLines(service).filter((line) => line.event === 'request' && line.route === '/api/health').map((line) => line.worker));
}

const takeHome = (url: string) => post(`${url}/api/v1/calculators/au.pay.take-home/calculate`, JSON.stringify({ facts: payFacts(165400, 'weekly', true) })).answer;

/** Workers that answered calculate requests, by id, from the request log lines. */
function answeringWorkers(service: ServiceProcess): Set<unknown> {
  return new Set(logLines(service).filter((line) => line.event === 'request' && String(line.route).endsWith('/calculate')).map((line) => line.worker));
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

    const first = logLines(service).find((line) => line.event === 'worker-listening')!;
    process.kill(first.workerPid as number, 'SIGKILL');
    await until(() => logLines(service).some((line) => line.event === 'worker-died' && line.worker === first.worker), 'the primary saw the worker die');
    await until(() => logLines(service).filter((line) => line.event === 'worker-listening').length === 3, 'a third worker listening');
    // The fleet answers, from the new worker too (this client's limit is spent, so the answers are 429s).
    const replacement = logLines(service).filter((line) => line.event === 'worker-listening').at(-1)!.worker;
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
    const stopped = logLines(service).filter((line) => line.event === 'worker-stopped');
    assert.equal(stopped.map((line) => line.code), [0, 0]);
    assert.equal(
      logLines(service).filter((line) => line.event === 'stopped').map((line) => line.outcome),
      ['drained', 'drained', 'drained'],
    );
    assert.is(answeringWorkers(service).size, 2);
  } finally {
    for (const agent of connections) agent.destroy();
    await stopService(service);
    rmSync(slowPack, { recursive: true, force: true });
  }
});

const stdoutFilesUnreadable = procUnavailable('which file a process writes its stdout to');
// Without /proc the test below still checks the lines; the runner counts the pipe check as skipped.
if (stdoutFilesUnreadable) testOr(test, stdoutFilesUnreadable)('each worker writes its stdout through a pipe of its own', () => undefined);

test('a log reader that falls behind still gets whole lines from every worker, none cut into another', async () => {
  buildOnce();
  // The fleet's stdout is a pipe, read by dd 1 KiB at a time, and this test keeps stopping reading
  // dd's output while the workers answer thousands of requests: the pipe fills and the lines wait
  // in the service.
  const child = spawn('sh', ['-c', 'scripts/start.sh | dd bs=1024 status=none'], { cwd: PROJECT_ROOT, env: serviceEnvironment({ WEB_CONCURRENCY: '2', RATE_LIMIT_MAX: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => (output += text));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    await until(() => output.includes('"event":"listening"'), 'the fleet listening');
    const listening = JSON.parse(output.split('\n').find((line) => line.includes('"event":"listening"'))!) as { url: string; pid: number };
    // The primary is stdout's only writer: each worker's stdout is a pipe of its own, which the primary reads.
    if (!stdoutFilesUnreadable) {
      const workerPids = output.split('\n').filter((line) => line.includes('"event":"worker-listening"')).map((line) => (JSON.parse(line) as { workerPid: number }).workerPid);
      const stdoutOf = (pid: number) => readlinkSync(`/proc/${pid}/fd/1`);
      assert.is(workerPids.length, 2);
      for (const pid of workerPids) assert.is.not(stdoutOf(pid), stdoutOf(listening.pid));
    }
    // Reading stops and starts again every 200 ms: each time it starts, both workers have a backlog to write at once.
    const readingInTurns = setInterval(() => (child.stdout.isPaused() ? child.stdout.resume() : child.stdout.pause()), 200);
    // Enough requests to fill the pipe many times over, however fast the machine is today: a fixed
    // stretch of time answered too few on a busy machine.
    let answered = 0;
    const enough = 1200;
    const giveUpAt = performance.now() + 30_000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (answered < enough && performance.now() < giveUpAt) if ((await fetchOn(agent, `${listening.url}/api/health`)) === 200) answered++;
      }),
    );
    clearInterval(readingInTurns);
    agent.destroy();
    child.stdout.resume();
    process.kill(listening.pid, 'SIGTERM');
    await closed;
    const text = output.split('\n').filter((line) => line !== '');
    const broken = text.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    assert.equal(broken.slice(0, 3), [], `${broken.length} of ${text.length} lines are not JSON`);
    const requestLines = text.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.event === 'request' && line.route === '/api/health');
    assert.ok(answered > 1000, `only ${answered} requests answered: the pipe never filled`);
    assert.is(requestLines.length, answered);
    assert.equal(new Set(requestLines.map((line) => line.worker)), new Set([1, 2]));
  } finally {
    agent.destroy();
    // A failed test must not leave the fleet running: its primary is the process whose line says listening.
    const primary = /"pid":(\d+)[^\n]*"event":"listening"/.exec(output)?.[1];
    if (child.exitCode === null && primary) process.kill(Number(primary), 'SIGKILL');
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test.run();
