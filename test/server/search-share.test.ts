import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../docs-site/index.ts';
import { createClientShare } from '../../server/limits/client-share.ts';
import { startTestServer } from './helpers.ts';

// Each client's share of documentation search time: one address searching for new terms as fast as
// it can is refused once its share is spent, while another address still searches.
const FIXTURE_DOCS = fileURLToPath(new URL('../fixtures/docs/site/', import.meta.url));

test('a share runs work while the client has time left, charges what it took, and refills with time', () => {
  let clock = 0;
  const share = createClientShare({ msPerSecond: 100, burstMs: 100, maxClients: 10 }, () => clock);
  const work = (ms: number) => () => {
    clock += ms;
    return ms;
  };
  assert.equal(share.run('a', work(60)), { ran: true, value: 60 });
  // 40 ms left: the next piece runs in full, and leaves the share 20 ms short.
  assert.equal(share.run('a', work(60)), { ran: true, value: 60 });
  const refused = share.run('a', work(1));
  assert.is(refused.ran, false);
  // 20 ms short at 100 ms a second: time again after a little over 200 ms.
  assert.ok(!refused.ran && refused.refillsInMs > 200 && refused.refillsInMs <= 220, JSON.stringify(refused));
  assert.equal(share.run('b', work(0)), { ran: true, value: 0 }, 'another client has its own share');
  clock += 200;
  assert.is(share.run('a', work(1)).ran, false, 'not yet above zero');
  clock += 10;
  assert.equal(share.run('a', work(1)), { ran: true, value: 1 });
});

test('a share remembers at most maxClients clients, forgetting the least recently charged', () => {
  let clock = 0;
  const share = createClientShare({ msPerSecond: 1, burstMs: 10, maxClients: 2 }, () => clock);
  const spend = () => (clock += 20);
  share.run('a', spend);
  share.run('b', spend);
  assert.is(share.run('a', spend).ran, false);
  share.run('c', spend);
  // `a` was the least recently charged when `c` came (a refusal charges nothing): forgotten, its share is full again.
  assert.is(share.run('b', spend).ran, false);
  assert.is(share.run('a', spend).ran, true);
});

/** A documentation search from one loopback address: its status. */
function search(port: number, localAddress: string, term: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, localAddress, agent: false, path: `/api/v1/docs/search?term=${encodeURIComponent(term)}` }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test("one address searching for new terms is refused once its share is spent, after a wait; another address's searches and repeated terms are still answered", async () => {
  // A share so small that one search spends it, and so slow to refill that a refusal waits its longest.
  const searchShare = createClientShare({ msPerSecond: 0.001, burstMs: 0.0001, maxClients: 10 });
  const docs = buildDocsSite({ contentDir: `${FIXTURE_DOCS}content`, navigationFile: `${FIXTURE_DOCS}navigation.yaml` });
  const server = await startTestServer({ deps: { docs, searchShare } });
  const port = Number(new URL(server.url).port);
  try {
    assert.is(await search(port, '127.0.0.1', 'tax'), 200);
    const started = performance.now();
    assert.is(await search(port, '127.0.0.1', 'pay'), 503);
    assert.ok(performance.now() - started >= 900, 'the refusal waits up to a second for the share to refill');
    assert.is(await search(port, '127.0.0.2', 'pay'), 200, 'another address searches');
    assert.is(await search(port, '127.0.0.1', 'tax'), 200, 'a repeated term is answered from memory, at no cost to the share');
    const page = await fetch(`${server.url}/docs/_search?term=rules`);
    assert.is(page.status, 503, 'the HTML search page counts against the same share');
    assert.match(await page.text(), 'Search is busy');
  } finally {
    await server.close();
  }
});

test.run();
