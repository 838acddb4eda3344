import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSendingBudget, LARGE_BODIES } from '../../server/limits/sending-budget.ts';
import { startTestServer } from './helpers.ts';

// Large static files are sent within a budget of bytes a second, in all and per client: a crowd
// asking for the viewer's 1.7 MB bundle uncompressed once kept the event loop copying it for seconds.

test('the budget gives each client its part and the whole its total, refilled with time', () => {
  let clock = 0;
  const budget = createSendingBudget({ totalBytesPerSecond: 300, perClientBytesPerSecond: 200, maxClients: 10 }, () => clock);
  assert.ok(budget.take('a', 150));
  assert.not.ok(budget.take('a', 100), "over the client's part");
  assert.ok(budget.take('b', 100));
  assert.not.ok(budget.take('c', 100), 'over the total, though within c\'s part');
  clock += 500;
  // Half a second: the total has 50 + 150, a's part 50 + 100.
  assert.ok(budget.take('a', 150));
  assert.not.ok(budget.take('c', 100));
  clock += 1000;
  assert.ok(budget.take('c', 200));
});

/** The viewer's bundle from one loopback address, without accept-encoding unless given: status and headers. */
function bundle(port: number, path: string, localAddress: string, encoding?: string): Promise<{ status: number; retryAfter?: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, localAddress, agent: false, headers: encoding ? { 'accept-encoding': encoding } : {} }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, ...(response.headers['retry-after'] ? { retryAfter: response.headers['retry-after'] } : {}) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test('twenty uncompressed bundles asked for at once from one address: a few are sent, the rest refused 503 with retry-after; others are still served', async () => {
  const server = await startTestServer();
  const port = Number(new URL(server.url).port);
  try {
    const page = await (await fetch(`${server.url}/api/docs`)).text();
    const path = /src="(\/api\/docs\/assets\/swagger-ui-bundle[^"]*\.js)"/.exec(page)![1]!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => bundle(port, path, '127.0.0.1')));
    const sent = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    const summary = JSON.stringify(answers.map((answer) => answer.status));
    // 4 MiB a second per client is two bundles at once, and one more for each further ~0.4 s the
    // twenty take to arrive: on a busy machine a few more, never most of them.
    assert.ok(sent.length >= 2 && sent.length <= 10, summary);
    assert.ok(sent.every((answer) => answer.bytes > LARGE_BODIES.aboveBytes), summary);
    assert.is(refused.length, 20 - sent.length, summary);
    assert.ok(refused.every((answer) => answer.retryAfter === '1'), summary);
    assert.is((await bundle(port, path, '127.0.0.2')).status, 200, 'another address is sent the bundle');
    assert.is((await bundle(port, path, '127.0.0.3', 'br')).status, 200, 'and another, compressed');
  } finally {
    await server.close();
  }
});

test.run();
