import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdminServer } from '../../server/process/admin.ts';
import { runToExit } from '../helpers/service-process.ts';
import { rawRequest } from './raw-http.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// Requests at the edges of HTTP: a tunnel asked for, a request naming two hosts, and a service whose
// admin port is its API port.

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after(() => server.close());

test('CONNECT is answered 405 in the contract\'s shape, with allow, and the connection closed', async () => {
  const { response } = rawRequest(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n');
  const answer = await response;
  assert.is(answer.status, 405);
  assert.is(answer.headers.allow, 'GET, HEAD, POST');
  assert.is(answer.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(JSON.parse(answer.body), { _tag: 'MethodNotAllowed', message: 'This route does not accept this method. Allowed: GET, HEAD, POST.' });
  assert.ok(answer.closed);
});

test('CONNECT to the admin listener is answered 405 in its shape', async () => {
  const admin: Server = createAdminServer({ metrics: { registry: { metrics: async () => '', contentType: 'text/plain' } }, readiness: () => 'ready' });
  await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
  try {
    const { response } = rawRequest(`http://127.0.0.1:${(admin.address() as AddressInfo).port}`, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n');
    const answer = await response;
    assert.is(answer.status, 405);
    assert.is(answer.headers.allow, 'GET, HEAD');
    assert.equal(JSON.parse(answer.body), { status: 'method not allowed' });
    assert.ok(answer.closed);
  } finally {
    admin.close();
  }
});

test('an HTTP/1.1 request with two Host headers is refused 400 in the contract\'s shape, naming the header and not its values', async () => {
  for (const hosts of ['host: a.example\r\nhost: b.example\r\n', 'Host: a.example\r\nHOST: a.example\r\n']) {
    const { response } = rawRequest(server.url, `GET /api/health HTTP/1.1\r\n${hosts}\r\n`);
    const answer = await response;
    assert.is(answer.status, 400, hosts);
    const body = JSON.parse(answer.body);
    assert.is(body.error._tag, 'CalculatorInputDecodeError');
    assert.equal(body.error.issues, [{ _tag: 'CalculatorInputIssue', message: 'A request must carry exactly one Host header.', path: ['headers', 'host'] }]);
    assert.not.match(answer.body, 'example');
    assert.ok(answer.closed, 'the connection is closed');
  }
  const one = await rawRequest(server.url, 'GET /api/health HTTP/1.1\r\nhost: a.example\r\nconnection: close\r\n\r\n').response;
  assert.is(one.status, 200);
});

test('with ADMIN_PORT equal to PORT the service stops saying that its own admin listener holds the port', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = String((probe.address() as AddressInfo).port);
  await new Promise((resolve) => probe.close(resolve));
  const { code, output } = await runToExit({ PORT: port, ADMIN_PORT: port });
  assert.is(code, 1, output);
  const failure = output.split('\n').find((line) => line.includes('"event":"cannot-listen"'));
  assert.ok(failure, output);
  assert.match(JSON.parse(failure!).reason, `port ${port} on 127.0.0.1 is already in use by this service's own admin listener, since ADMIN_PORT is the same as PORT; set ADMIN_PORT to another port`);
});

test.run();
