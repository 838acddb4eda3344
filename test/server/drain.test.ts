import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeDrainable } from '../../server/process/drain.ts';
import { money } from '../helpers/packs.ts';
import { startKeepAliveLoad } from './keep-alive-load.ts';
import { startTestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';

const CALCULATE = '/api/v1/calculators/au.income-tax.annual/calculate';
const BODY = JSON.stringify({ facts: { taxableIncome: money(9_000_000) } });
const head = (connection: 'keep-alive' | 'close') =>
  `POST ${CALCULATE} HTTP/1.1\r\nhost: x\r\nconnection: ${connection}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`;

test('a request written on an idle keep-alive connection just before the drain is answered, with connection: close', async () => {
  const service = await startTestServer();
  const drainable = makeDrainable(service.server);
  try {
    const first = rawRequest(service.url, head('keep-alive'));
    const chunks: string[] = [];
    first.socket.on('data', (chunk) => chunks.push(chunk.toString('latin1')));
    await new Promise<void>((resolve) => first.socket.once('data', () => resolve()));
    while (!chunks.join('').includes('"liability"')) await new Promise((resolve) => setTimeout(resolve, 5));
    chunks.length = 0;
    // The connection is idle now; the second request reaches the socket buffer, unread, as the drain starts.
    first.socket.write(head('keep-alive'));
    const outcome = drainable.drain(5_000);
    await new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
    const answer = chunks.join('');
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.is(await outcome, 'drained');
  } finally {
    await service.close();
  }
});

test('under keep-alive load every request sent before the drain is answered, and the drain completes', async () => {
  const service = await startTestServer();
  const drainable = makeDrainable(service.server);
  try {
    const load = startKeepAliveLoad(service.url, 8, CALCULATE, BODY);
    await load.warmedUp(3);
    load.markSignal();
    const outcome = await drainable.drain(5_000);
    await load.finished;
    assert.is(outcome, 'drained');
    const before = load.requests.filter((request) => request.sentBeforeSignal);
    assert.ok(before.length >= 24);
    assert.equal(before.filter((request) => request.status !== 200), []);
    assert.ok(load.requests.some((request) => request.connectionClose));
  } finally {
    await service.close();
  }
});

test('a request that outlasts the drain budget is cut off and the drain says so', async () => {
  const service = await startTestServer();
  const drainable = makeDrainable(service.server);
  try {
    // Headers promise a body that never comes: the request is received but cannot be answered in time.
    const stuck = rawRequest(service.url, `POST ${CALCULATE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.is(await drainable.drain(300), 'budget-exceeded');
    assert.ok((await stuck.response).closed);
    assert.ok(drainable.draining);
  } finally {
    await service.close();
  }
});

test.run();
