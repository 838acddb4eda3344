import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientAddress, clientKey } from '../../server/limits/client.ts';
import { payFacts } from '../helpers/packs.ts';
import { startTestServer } from './helpers.ts';

// Who the client is decides whose allowance a calculation uses: it must be a value the caller
// cannot choose, and one subscriber must not get a fresh allowance per address.

test('without trusted proxies the client is the peer, whatever X-Forwarded-For says', () => {
  assert.is(clientAddress('198.51.100.4', '203.0.113.9', 0), '198.51.100.4');
});

test('behind N trusted proxies the client is the Nth X-Forwarded-For entry from the right', () => {
  // The caller wrote "1.1.1.1, 2.2.2.2"; the outer proxy appended the caller's address, the inner one the outer proxy's.
  const header = '1.1.1.1, 2.2.2.2, 203.0.113.9, 10.0.0.2';
  assert.is(clientAddress('10.0.0.3', header, 1), '10.0.0.2');
  assert.is(clientAddress('10.0.0.3', header, 2), '203.0.113.9');
  assert.is(clientAddress('10.0.0.3', '203.0.113.9', 1), '203.0.113.9');
  assert.is(clientAddress('10.0.0.3', '[2001:db8::7]', 1), '2001:db8::7');
});

test('a chain shorter than the trusted hops, or an entry that is not an address, counts as the peer', () => {
  assert.is(clientAddress('10.0.0.3', '203.0.113.9', 2), '10.0.0.3');
  assert.is(clientAddress('10.0.0.3', 'unknown', 1), '10.0.0.3');
  assert.is(clientAddress('10.0.0.3', '203.0.113.9, ', 1), '10.0.0.3');
  assert.is(clientAddress('10.0.0.3', '', 1), '10.0.0.3');
  assert.is(clientAddress('10.0.0.3', undefined, 1), '10.0.0.3');
});

test('IPv4 addresses are keyed as they are, IPv4-mapped IPv6 addresses as their IPv4 address', () => {
  assert.is(clientKey('203.0.113.9'), '203.0.113.9');
  assert.is(clientKey('::ffff:203.0.113.9'), '203.0.113.9');
  assert.is(clientKey('::ffff:cb00:7109'), '203.0.113.9');
});

test('IPv6 addresses are keyed by their /64, however they are written', () => {
  const key = '2001:db8:0:1::/64';
  for (const address of ['2001:db8:0:1::1', '2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:0db8:0000:0001:0:0:0:2', '2001:DB8:0:1::3%eth0', '2001:db8:0:1::192.0.2.1']) {
    assert.is(clientKey(address), key, address);
  }
  assert.is.not(clientKey('2001:db8:0:2::1'), key);
  assert.is(clientKey('::1'), '0:0:0:0::/64');
  assert.is(clientKey('fe80::1'), 'fe80:0:0:0::/64');
});

test('an address that cannot be read shares one key', () => {
  assert.is(clientKey(undefined), 'unknown');
  assert.is(clientKey('not-an-address'), 'unknown');
});

const send = (url: string, forwardedFor: string) =>
  fetch(`${url}/api/v1/calculators/au.pay.take-home/calculate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ facts: payFacts(100000, 'weekly', true) }),
  });

test('a caller rotating spoofed X-Forwarded-For entries cannot raise its limit', async () => {
  for (const hops of [1, 2]) {
    const server = await startTestServer({ config: { rateLimitMax: 2, trustProxyHops: hops } });
    try {
      const statuses: number[] = [];
      // What the trusted proxies append stays the same; what the caller writes changes every time.
      const appended = hops === 1 ? '203.0.113.9' : '203.0.113.9, 10.0.0.2';
      for (let index = 0; index < 12; index++) statuses.push((await send(server.url, `192.0.2.${index}, ${appended}`)).status);
      assert.equal(statuses, [200, 200, ...Array(10).fill(429)], `${hops} trusted hops`);
      // Another client behind the same proxies has its own allowance.
      assert.is((await send(server.url, `192.0.2.1, ${appended.replace('203.0.113.9', '198.51.100.4')}`)).status, 200);
    } finally {
      await server.close();
    }
  }
});

test('addresses in one IPv6 /64 share one allowance; the key is never logged or answered', async () => {
  const server = await startTestServer({ config: { rateLimitMax: 2, trustProxyHops: 1 } });
  try {
    const statuses: number[] = [];
    const bodies: string[] = [];
    for (let index = 1; index <= 5; index++) {
      const response = await send(server.url, `2001:db8:0:1::${index.toString(16)}`);
      statuses.push(response.status);
      bodies.push(await response.text());
    }
    assert.equal(statuses, [200, 200, 429, 429, 429]);
    assert.is((await send(server.url, '2001:db8:0:2::1')).status, 200);
    const seen = JSON.stringify(server.logs) + bodies.join('');
    assert.not.match(seen, /2001:db8|::\/64/);
  } finally {
    await server.close();
  }
});

test.run();
