// Lane: services (npm run test:fast leaves this file out).
import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines, startService, stopService } from '../helpers/service-process.ts';
import { drainUnderLoad } from './fleet-drain-load.ts';
import { startLoadClient } from './load-client-process.ts';
import { rawRequest } from './raw-http.ts';

// A fleet (WEB_CONCURRENCY=2) under the faults an operator meets: a SIGTERM while kept-alive
// connections keep its workers busy and new connections keep arriving, and a worker killed while a
// connection is on its way to it. `npm run test:fleet-drain` runs the drain under the full load.


const until = async (condition: () => boolean, what: string, limitMs = 30_000) => {
  for (const deadline = performance.now() + limitMs; !condition(); await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (performance.now() > deadline) assert.unreachable(`never: ${what}`);
  }
};

/** A request on a connection of its own; `written` settles once it is all sent, `answer` with the status or what the client saw instead. */
function send(url: string, options: { method?: string; body?: string } = {}): { written: Promise<void>; answer: Promise<number | string> } {
  let written!: Promise<void>;
  const answer = new Promise<number | string>((resolve) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', agent: false, headers: options.body ? { 'content-type': 'application/json' } : {} }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    outgoing.on('close', () => resolve('closed without an answer'));
    written = new Promise((done) => outgoing.end(options.body, () => done()));
  });
  return { written, answer };
}

test('SIGTERM under kept-alive connections and a stream of new ones: nothing written before it is lost', async () => {
  const run = await drainUnderLoad({ workers: 2, keptAlive: 50, newConnectionEveryMs: 2, loadMs: 1000 });
  assert.equal(run.lost, [], `${run.lost.length} of ${run.writtenBeforeSignal.keptAlive + run.writtenBeforeSignal.new} requests written before the signal were lost`);
  assert.is(run.hanging, 0);
  assert.is(run.exitCode, 0, run.output);
});

test('a worker killed while a connection is on its way to it: that connection is closed at once, the rest answered, and the worker replaced', async () => {
  const service = await startService({ WEB_CONCURRENCY: '2', RATE_LIMIT_MAX: '0' });
  try {
    const workers = logLines(service).filter((line) => line.event === 'worker-listening');
    const victim = workers[0]!.workerPid as number;
    // A stopped worker takes nothing: the connection handed to it waits, and the others go to the other worker.
    process.kill(victim, 'SIGSTOP');
    const requests = Array.from({ length: 6 }, () => send(`${service.url}/api/health`));
    await Promise.all(requests.map((request) => request.written));
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(victim, 'SIGKILL');
    const killedAt = performance.now();
    const waited = (answer: Promise<number | string>) => Promise.race([answer, new Promise<string>((resolve) => setTimeout(() => resolve('still open after 5 s'), 5000))]);
    const answers = await Promise.all(requests.map((request) => waited(request.answer).then((answer) => ({ answer, afterMs: Math.round(performance.now() - killedAt) }))));
    for (const { answer, afterMs } of answers) assert.ok(answer === 200 || afterMs < 2000, `${answer} after ${afterMs} ms`);
    await until(() => logLines(service).filter((line) => line.event === 'worker-listening').length === 3, 'a replacement worker listening');
  } finally {
    await stopService(service);
  }
});

test('worker killed under a stream of new connections: every connection is answered or closed promptly', async () => {
  const service = await startService({ WEB_CONCURRENCY: '2', RATE_LIMIT_MAX: '0', MAX_CONNECTIONS_PER_CLIENT: '0' });
  const client = startLoadClient({ url: service.url, path: '/api/health', method: 'GET', keptAlive: 0, newConnectionEveryMs: 2 });
  try {
    await client.warmedUp;
    for (let kill = 0; kill < 2; kill++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const listening = logLines(service).filter((line) => line.event === 'worker-listening');
      process.kill(listening.at(-1)!.workerPid as number, 'SIGKILL');
      await until(() => logLines(service).filter((line) => line.event === 'worker-listening').length === listening.length + 1, 'a replacement worker listening');
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { records } = await client.stop(3000);
    const hanging = records.filter((record) => record.endedAt === undefined);
    assert.equal(hanging.length, 0, `${hanging.length} of ${records.length} connections neither answered nor closed 3 s after the last was opened`);
    assert.ok(records.filter((record) => record.status === 200).length > 100);
  } finally {
    await stopService(service);
  }
});

test('a connection handed to a worker is held to the header deadline: a client that never finishes its headers gets 408', async () => {
  const service = await startService({ WEB_CONCURRENCY: '2', HEADERS_TIMEOUT_MS: '500' });
  try {
    const startedAt = performance.now();
    const slow = rawRequest(service.url, 'GET /api/health HTTP/1.1\r\nhost: x\r\n');
    const response = await Promise.race([slow.response, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 5000))]);
    slow.socket.destroy();
    assert.ok(response, 'no answer within 5 s');
    assert.is(response!.status, 408);
    assert.ok(performance.now() - startedAt < 4000);
  } finally {
    await stopService(service);
  }
});

test.run();
