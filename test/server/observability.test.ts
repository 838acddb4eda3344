import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdminServer, type Readiness } from '../../server/process/admin.ts';
import { connectionCounts } from '../../server/limits/connections.ts';
import { createMetrics } from '../../server/process/metrics.ts';
import { money } from '../helpers/packs.ts';
import { calculate, startTestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('every answer carries a request id: a well-formed incoming one is kept, anything else replaced; the log line has the same id', async () => {
  const service = await startTestServer();
  try {
    const made = await fetch(`${service.url}/api/health`);
    assert.match(made.headers.get('x-request-id') ?? '', UUID);
    const kept = await fetch(`${service.url}/api/health`, { headers: { 'x-request-id': 'lb-7f3a:42' } });
    assert.is(kept.headers.get('x-request-id'), 'lb-7f3a:42');
    for (const unusable of ['x'.repeat(129), 'two words', 'a"b', '<script>']) {
      const replaced = await fetch(`${service.url}/api/health`, { headers: { 'x-request-id': unusable } });
      assert.match(replaced.headers.get('x-request-id') ?? '', UUID);
    }
    const failed = await calculate(service.url, 'no.such.calculator', { facts: {} });
    assert.is(failed.status, 400);
    assert.match(failed.headers.get('x-request-id') ?? '', UUID);
    assert.equal(
      service.logs.map((line) => line.requestId),
      [made, kept].map((response) => response.headers.get('x-request-id')).concat(service.logs.slice(2).map((line) => line.requestId)),
    );
    assert.is(service.logs[1]!.requestId, 'lb-7f3a:42');
    assert.is(service.logs.at(-1)!.requestId, failed.headers.get('x-request-id'));
  } finally {
    await service.close();
  }
});

test('no log line holds a body, a fact, a query value or a path value', async () => {
  const service = await startTestServer();
  try {
    await calculate(service.url, 'au.income-tax.annual', { facts: { taxableIncome: money(987_654_321) } });
    await calculate(service.url, 'au.income-tax.annual', { facts: { taxableIncome: 'secret-fact-text' } });
    await calculate(service.url, 'au.income-tax.annual', '{"facts": {"taxableIncome": 123456789012', '');
    await calculate(service.url, 'zz.secret-calculator', { facts: {} }, '?taxYear=secret-year-value');
    await fetch(`${service.url}/api/v1/calculators?jurisdiction=SECRETJURIS`);
    await fetch(`${service.url}/api/v1/docs/search?term=secretsearchterm`);
    await fetch(`${service.url}/api/v1/docs/pages/secret-page-path`);
    await fetch(`${service.url}/secret-unknown-path`);
    const text = service.logs.map((line) => JSON.stringify(line)).join('\n');
    assert.is(service.logs.length, 8);
    for (const value of ['987654321', 'secret', 'SECRET', '123456789012']) assert.not.ok(text.includes(value), `a log line holds ${value}:\n${text}`);
    for (const line of service.logs) assert.equal(Object.keys(line).sort(), ['durationMs', 'method', 'requestId', 'route', 'status']);
  } finally {
    await service.close();
  }
});

test('metrics count requests by route template and status, calculations by calculator and outcome, and limit answers by kind', async () => {
  const metrics = createMetrics();
  const service = await startTestServer({ config: { rateLimitMax: 1 }, deps: { metrics } });
  const count = async (line: string) => Number(new RegExp(`^${line.replace(/[{}()[\].*+?^$|\\/]/g, '\\$&')} (\\d+)$`, 'm').exec(await metrics.registry.metrics())?.[1] ?? 0);
  const calculateOk = 'calculations_total{calculator="au.income-tax.annual",outcome="ok"}';
  const posted = 'http_requests_total{method="POST",route="/api/v1/calculators/:calculatorId/calculate",status="200"}';
  try {
    assert.is(await count(posted), 0);
    assert.is((await calculate(service.url, 'au.income-tax.annual', { facts: { taxableIncome: money(9_000_000) } })).status, 200);
    assert.is(await count(posted), 1);
    assert.is(await count(calculateOk), 1);
    assert.is(await count('http_request_duration_seconds_count{method="POST",route="/api/v1/calculators/:calculatorId/calculate",status="200"}'), 1);
    // The second calculation from the same client is over the limit of one.
    assert.is((await calculate(service.url, 'au.income-tax.annual', { facts: { taxableIncome: money(9_000_000) } })).status, 429);
    assert.is(await count('calculations_total{calculator="au.income-tax.annual",outcome="rate-limited"}'), 1);
    assert.is(await count('http_limit_responses_total{status="429",kind="CalculatorRateLimited"}'), 1);
    assert.is((await calculate(service.url, 'au.income-tax.annual', 'x'.repeat(70_000))).status, 413);
    assert.is(await count('http_limit_responses_total{status="413",kind="CalculatorRequestBodyTooLarge"}'), 1);
    await fetch(`${service.url}/api/v1/calculators`);
    assert.is(await count('http_requests_total{method="GET",route="/api/v1/calculators",status="200"}'), 1);
    await fetch(`${service.url}/no/such/route`);
    assert.is(await count('http_requests_total{method="GET",route="(unmatched)",status="404"}'), 1);
    // Unknown calculators are not labels: an attacker cannot grow the label set.
    await calculate(service.url, 'zz.not-a-calculator', { facts: {} });
    assert.not.match(await metrics.registry.metrics(), /zz\.not-a-calculator/);
  } finally {
    await service.close();
  }
});

test('answers given below the application are counted too: the 408 of the header deadline and the 503 of a refused connection', async () => {
  const metrics = createMetrics();
  const service = await startTestServer({ config: { headersTimeoutMs: 200, maxConnectionsPerClient: 1 }, deps: { metrics } });
  const count = async (labels: string) => Number(new RegExp(`^http_limit_responses_total\\{${labels}\\} (\\d+)$`, 'm').exec(await metrics.registry.metrics())?.[1] ?? 0);
  try {
    // Headers that never end: Node's deadline answers, and the answer is counted as a limit's.
    const slow = rawRequest(service.url, 'GET /api/v1/calculators HTTP/1.1\r\nhost: x\r\n');
    const timedOut = await slow.response;
    assert.is(timedOut.status, 408);
    assert.is(await count('status="408",kind="RequestTimeout"'), 1);
    // One connection held; a second one from the same address is over its share.
    const held = rawRequest(service.url, 'GET /api/v1/calculators HTTP/1.1\r\nhost: x\r\n');
    while ((connectionCounts(service.server)?.held() ?? 0) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await rawRequest(service.url, 'GET /api/v1/calculators HTTP/1.1\r\nhost: x\r\n\r\n').response;
    assert.is(refused.status, 503);
    assert.is(await count('status="503",kind="ClientConnectionsFull"'), 1);
    held.socket.destroy();
  } finally {
    await service.close();
  }
});

test('the admin listener answers liveness, readiness as it changes, and metrics in Prometheus text format', async () => {
  const metrics = createMetrics({ processMetrics: true });
  let readiness: Readiness = 'starting';
  const admin = createAdminServer({ metrics, readiness: () => readiness });
  await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  try {
    assert.is((await fetch(`${url}/livez`)).status, 200);
    const starting = await fetch(`${url}/readyz`);
    assert.is(starting.status, 503);
    assert.equal(await starting.json(), { status: 'starting' });
    readiness = 'ready';
    assert.is((await fetch(`${url}/readyz`)).status, 200);
    readiness = 'draining';
    const draining = await fetch(`${url}/readyz`);
    assert.is(draining.status, 503);
    assert.equal(await draining.json(), { status: 'draining' });
    assert.is((await fetch(`${url}/livez`)).status, 200);

    metrics.countCalculation('au.pay.take-home', 'ok');
    const exposition = await fetch(`${url}/metrics`);
    assert.is(exposition.status, 200);
    assert.match(exposition.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await exposition.text();
    for (const name of ['http_requests_total', 'http_request_duration_seconds', 'calculations_total', 'http_limit_responses_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.match(text, /^calculations_total\{calculator="au\.pay\.take-home",outcome="ok"\} 1$/m);
    assert.is((await fetch(`${url}/api/health`)).status, 404);
    assert.is((await fetch(`${url}/metrics`, { method: 'POST' })).status, 405);
  } finally {
    admin.closeAllConnections();
    await new Promise((resolve) => admin.close(resolve));
  }
});

test.run();
