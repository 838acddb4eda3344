import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectDocsSite } from '../helpers/docs.ts';
import { payFacts, shippedPacks } from '../helpers/packs.ts';
import { monitorEventLoop } from '../../server/limits/load.ts';
import { startTestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';

// A saturated service refuses new costly work at once instead of queueing it, and the budget of a
// calculation runs from the request's arrival. The tests put the server in each state on purpose
// (it runs in this process, so keeping this process busy saturates it) and check the answers given
// in that state; nothing is timed.
const CALCULATE = '/api/v1/calculators/au.pay.take-home/calculate';
const calculationBody = JSON.stringify({ facts: payFacts(165400, 'weekly', true) });
const capacityExceeded = {
  error: { _tag: 'CalculatorCapacityExceeded', code: 'calculation-capacity', message: 'The calculators are busy. Try again when you are ready.', retry: 'try-again-manually' },
};

/** Keeps this process's event loop busy with its own work, in stretches, until stopped; other callbacks run between stretches. */
function hog(stretchMs: number): { stop(): void } {
  let going = true;
  const stretch = () => {
    if (!going) return;
    const until = performance.now() + stretchMs;
    while (performance.now() < until);
    setImmediate(stretch);
  };
  setImmediate(stretch);
  return { stop: () => (going = false) };
}

const idleFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(url: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  const head = body === undefined ? `GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n` : `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
  const { socket, response } = rawRequest(url, head);
  const answer = await response;
  socket.destroy();
  return answer;
}

test('while the event loop is saturated new calculations and new searches get 503 at once; cheap answers and cached searches still come', async () => {
  const docs = await projectDocsSite(shippedPacks().catalog);
  const load = monitorEventLoop(50);
  const server = await startTestServer({ deps: { docs, load } });
  /** Waits, in idle stretches, for the monitor to reach a state (start-up work can leave the loop saturated for a moment). */
  const until = async (saturated: boolean) => {
    while (load.saturated() !== saturated) await idleFor(10);
  };
  try {
    await until(false);
    assert.is((await send(server.url, '/api/v1/docs/search?term=rounding')).status, 200);
    const busy = hog(120);
    try {
      while (!load.saturated()) await new Promise((resolve) => setImmediate(resolve));
      const refused = await send(server.url, CALCULATE, calculationBody);
      assert.is(refused.status, 503);
      assert.equal(JSON.parse(refused.body), capacityExceeded);
      const search = await send(server.url, '/api/v1/docs/search?term=withholding');
      assert.is(search.status, 503);
      assert.is(JSON.parse(search.body)._tag, 'DocsSearchUnavailable');
      assert.is((await send(server.url, '/api/v1/docs/search?term=rounding')).status, 200);
      assert.is((await send(server.url, '/api/v1/calculators')).status, 200);
    } finally {
      busy.stop();
    }
    await until(false);
    assert.is((await send(server.url, CALCULATE, calculationBody)).status, 200);
    assert.is((await send(server.url, '/api/v1/docs/search?term=withholding')).status, 200);
  } finally {
    load.close();
    await server.close();
  }
});

test('the calculation budget runs from the request: a body that takes the whole budget to arrive gets 504 at once', async () => {
  const budgetMs = 300;
  const server = await startTestServer({ config: { calcTimeoutMs: budgetMs } });
  try {
    const { socket, response } = rawRequest(
      server.url,
      `POST ${CALCULATE} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(calculationBody)}\r\nconnection: close\r\n\r\n${calculationBody.slice(0, 10)}`,
    );
    // Longer than the budget, well inside the body's own time limit (5 s).
    await idleFor(budgetMs * 2);
    socket.write(calculationBody.slice(10));
    const answer = await response;
    socket.destroy();
    assert.is(answer.status, 504);
    assert.is(JSON.parse(answer.body).error._tag, 'CalculatorOperationTimedOut');
    // A request that arrives whole is calculated as usual.
    assert.is((await send(server.url, CALCULATE, calculationBody)).status, 200);
  } finally {
    await server.close();
  }
});

test.run();
