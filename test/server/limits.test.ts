import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startWorkerPool } from '../../server/calculate/worker-pool.ts';
import type { CalculationRunner } from '../../server/calculate/runner.ts';
import { money, payFacts, SHIPPED_PACKS } from '../helpers/packs.ts';
import type { Served } from '../../server/process/served-catalog.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';
import { writeSlowPack } from './slow-pack.ts';

// Limits that need a socket, against a real listening server. Calculations run on the real worker
// pool, with a deliberately slow fixture pack and test-sized settings instead of minutes of waiting.
const PATH = '/api/v1/calculators/au.pay.take-home/calculate';
const slowPackDir = writeSlowPack(20, 600);
const slowFacts = { facts: { step0: money(100_000_000) } };
let pool: CalculationRunner;
let served: Served;

test.before(async () => {
  pool = await startWorkerPool({ size: 1, packPaths: [SHIPPED_PACKS, slowPackDir], graceMs: 0 });
  served = servedPacks({ extraPaths: [slowPackDir] });
});
test.after(async () => {
  await pool.close();
  rmSync(slowPackDir, { recursive: true, force: true });
});

async function withServer(config: Parameters<typeof startTestServer>[0], run: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ ...config, deps: { catalog: served.catalog, defaultTaxYear: served.defaultTaxYear, runner: pool, ...config?.deps } });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

const tooLarge = { _tag: 'CalculatorRequestBodyTooLarge', code: 'request-too-large', message: 'This request is too large. Reduce it to 64 KiB or less and try again.', retry: 'reduce-request' };

test('a body over 64 KiB with content-length is refused with 413 before it is read', () =>
  withServer({}, async (server) => {
    const { socket, response } = rawRequest(server.url, `POST ${PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 70000\r\n\r\n`);
    const answer = await response; // no body byte was sent: the answer cannot have waited for it
    socket.destroy();
    assert.is(answer.status, 413);
    assert.equal(JSON.parse(answer.body), { error: tooLarge });
    assert.ok(answer.closed);
  }));

test('a chunked body is cut off at the limit without waiting for its end', () =>
  withServer({}, async (server) => {
    const { socket, response } = rawRequest(server.url, `POST ${PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = 'x'.repeat(16 * 1024);
    for (let index = 0; index < 5; index++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const answer = await response; // the terminating chunk is never sent
    socket.destroy();
    assert.is(answer.status, 413);
    assert.equal(JSON.parse(answer.body), { error: tooLarge });
  }));

test('exactly 65,536 bytes are accepted; one more is not', () =>
  withServer({}, async (server) => {
    const json = JSON.stringify({ facts: payFacts(165400, 'weekly', true) });
    const exact = json.slice(0, -1) + ' '.repeat(65536 - json.length) + '}';
    assert.is(Buffer.byteLength(exact), 65536);
    const ok = await calculate(server.url, 'au.pay.take-home', exact);
    assert.is(ok.status, 200);
    assert.equal(((await ok.json()) as any).report.netPay, money(130100));
    const over = await calculate(server.url, 'au.pay.take-home', `${exact} `);
    assert.is(over.status, 413);
  }));

test('a body not received within the read time is 408, and the connection is closed', () =>
  withServer({ config: { bodyTimeoutMs: 150 } }, async (server) => {
    const { socket, response } = rawRequest(server.url, `POST ${PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"facts":`);
    const answer = await response;
    socket.destroy();
    assert.is(answer.status, 408);
    assert.equal(JSON.parse(answer.body), {
      error: { _tag: 'CalculatorRequestBodyTimedOut', code: 'request-timeout', message: 'The request could not be read within five seconds. Try again when you are ready.', retry: 'try-again-manually' },
    });
    assert.ok(answer.closed);
  }));

test('over the rate limit a client gets 429 with retry-after 60; other clients and metadata are unaffected', () =>
  withServer({ config: { rateLimitMax: 3, trustProxyHops: 1 } }, async (server) => {
    const send = (client: string) =>
      fetch(`${server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': client }, body: JSON.stringify({ facts: payFacts(100000, 'weekly', true) }) });
    for (let index = 0; index < 3; index++) assert.is((await send('203.0.113.7')).status, 200);
    const limited = await send('203.0.113.7');
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('retry-after'), '60');
    assert.equal(await limited.json(), {
      error: { _tag: 'CalculatorRateLimited', code: 'rate-limited', message: 'Too many calculations were sent. Wait a minute before trying again.', retry: 'wait-then-try-manually' },
    });
    assert.is((await send('198.51.100.9')).status, 200);
    assert.is((await fetch(`${server.url}/api/v1/calculators`)).status, 200);
    // A request refused before admission (here, undecodable) does not use up the allowance either.
    const refused = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.1' }, body: '{}' });
    assert.is(refused.status, 400);
  }));

test('with every calculation place busy, another calculation gets 503 at once (no queue)', () =>
  withServer({}, async (server) => {
    const [first, second] = await Promise.all([calculate(server.url, 'test.slow', slowFacts), calculate(server.url, 'test.slow', slowFacts)]);
    const statuses = [first.status, second.status].sort();
    assert.equal(statuses, [200, 503]);
    const busy = first.status === 503 ? first : second;
    assert.equal(await busy.json(), {
      error: { _tag: 'CalculatorCapacityExceeded', code: 'calculation-capacity', message: 'The calculators are busy. Try again when you are ready.', retry: 'try-again-manually' },
    });
    // The place is free again once the first calculation is done.
    assert.is((await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165400, 'weekly', true) })).status, 200);
  }));

test('a calculation over its budget is stopped with 504, and the pool recovers', async () => {
  await withServer({ config: { calcTimeoutMs: 3 } }, async (server) => {
    const response = await calculate(server.url, 'test.slow', slowFacts);
    assert.is(response.status, 504);
    assert.equal(await response.json(), {
      error: { _tag: 'CalculatorOperationTimedOut', code: 'calculation-timeout', message: 'The calculation could not finish within five seconds. Try again when you are ready.', retry: 'try-again-manually' },
    });
  });
  // The stopped worker is replaced. Checked with the normal budget: under the 3 ms one, a busy machine
  // could time out the check itself and replace the worker again. 503 means "not ready yet".
  await withServer({}, async (server) => {
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165400, 'weekly', true) })).status;
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      else assert.is(status, 200);
    }
    assert.is(status, 200);
  });
});

test.run();
