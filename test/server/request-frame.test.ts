import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CalculationRunner } from '../../server/calculate/runner.ts';
import { createMetrics } from '../../server/process/metrics.ts';
import { money } from '../helpers/packs.ts';
import { calculate, startTestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';

// Every request goes through one request frame (server/http/request-frame.ts): the same id, headers, log
// line, errors and batched write for calculate as for every other route.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ANNUAL = { facts: { taxableIncome: money(9_000_000) } };
const CALCULATE_PATH = '/api/v1/calculators/au.income-tax.annual/calculate';

test('a calculate answer carries the same headers and log line as another route\'s', async () => {
  const service = await startTestServer({ config: { corsOrigins: ['https://app.example.com'] } });
  const origin = 'https://app.example.com';
  try {
    const calculated = await fetch(`${service.url}${CALCULATE_PATH}`, { method: 'POST', headers: { origin, 'content-type': 'application/json', 'x-request-id': 'calc-1' }, body: JSON.stringify(ANNUAL) });
    const listed = await fetch(`${service.url}/api/v1/calculators`, { headers: { origin, 'x-request-id': 'list-1' } });
    assert.is(calculated.status, 200);
    assert.is(listed.status, 200);
    // Header names alike; values alike but for the request id, the length and the date.
    const VARYING = new Set(['x-request-id', 'content-length', 'date']);
    const shape = (response: Response) => [...response.headers].map(([name, value]) => [name, VARYING.has(name) ? '*' : value]);
    assert.equal(shape(calculated), shape(listed));
    for (const [response, id] of [[calculated, 'calc-1'], [listed, 'list-1']] as const) {
      assert.is(response.headers.get('x-request-id'), id);
      assert.is(Number(response.headers.get('content-length')), (await response.arrayBuffer()).byteLength);
    }
    // One log line each, of the same fields, each naming its route template.
    assert.equal(
      service.logs.map((line) => Object.keys(line)),
      [['requestId', 'method', 'route', 'status', 'durationMs'], ['requestId', 'method', 'route', 'status', 'durationMs']],
    );
    assert.equal(
      service.logs.map(({ requestId, method, route, status }) => [requestId, method, route, status]),
      [
        ['calc-1', 'POST', '/api/v1/calculators/:calculatorId/calculate', 200],
        ['list-1', 'GET', '/api/v1/calculators', 200],
      ],
    );
  } finally {
    await service.close();
  }
});

test('a calculate answer, 200 or error, carries the request id, the headers of every answer and its length', async () => {
  const service = await startTestServer();
  try {
    const kept = await calculate(service.url, 'au.income-tax.annual', ANNUAL);
    const ok = await fetch(`${service.url}${CALCULATE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'lb-7f3a:42' }, body: JSON.stringify(ANNUAL) });
    const refused = await calculate(service.url, 'au.income-tax.annual', { facts: {}, extra: true });
    for (const [response, status] of [[kept, 200], [ok, 200], [refused, 400]] as const) {
      assert.is(response.status, status);
      assert.is(response.headers.get('x-content-type-options'), 'nosniff');
      assert.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.is(Number(response.headers.get('content-length')), (await response.arrayBuffer()).byteLength);
    }
    assert.match(kept.headers.get('x-request-id') ?? '', UUID);
    assert.is(ok.headers.get('x-request-id'), 'lb-7f3a:42');
    assert.match(refused.headers.get('x-request-id') ?? '', UUID);
    assert.equal(
      service.logs.map((line) => [line.requestId, line.method, line.route, line.status]),
      [kept, ok, refused].map((response) => [response.headers.get('x-request-id'), 'POST', '/api/v1/calculators/:calculatorId/calculate', response.status]),
    );
  } finally {
    await service.close();
  }
});

test('answers written in batches each reach their own request, 200s and errors alike, whatever the batch size', async () => {
  // Taxable incomes, one a request; the last is refused (a fact of the wrong kind).
  const bodies = [...Array.from({ length: 23 }, (_, index) => ({ facts: { taxableIncome: money(1_800_000 + index * 731_300) } })), { facts: { taxableIncome: 12 } }];
  const post = (url: string, body: unknown, requestId: string) =>
    fetch(`${url}${CALCULATE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': requestId }, body: JSON.stringify(body) });
  for (const answerBatchMax of [1, 4, 32]) {
    const service = await startTestServer({ config: { answerBatchMax, rateLimitMax: 0 } });
    try {
      // Each alone first, then all at once: the same answer for the same body.
      const alone: string[] = [];
      for (const [index, body] of bodies.entries()) alone.push(await (await post(service.url, body, `alone-${index}`)).text());
      const together = await Promise.all(bodies.map((body, index) => post(service.url, body, `together-${index}`)));
      for (const [index, response] of together.entries()) {
        assert.is(response.headers.get('x-request-id'), `together-${index}`);
        assert.is(response.status, index === bodies.length - 1 ? 400 : 200);
        assert.is(await response.text(), alone[index], `answer ${index} with batches of ${answerBatchMax}`);
      }
      assert.is(new Set(alone).size, bodies.length, 'every body gets an answer of its own');
    } finally {
      await service.close();
    }
  }
});

test('CORS headers on calculate answers for a listed origin, with retry-after exposed on a 429', async () => {
  const service = await startTestServer({ config: { corsOrigins: ['https://app.example.com'], rateLimitMax: 1 } });
  const post = (origin: string) =>
    fetch(`${service.url}${CALCULATE_PATH}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(ANNUAL) });
  try {
    const allowed = await post('https://app.example.com');
    assert.is(allowed.status, 200);
    assert.is(allowed.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.is(allowed.headers.get('access-control-expose-headers'), 'retry-after');
    assert.is(allowed.headers.get('vary'), 'origin');
    const limited = await post('https://app.example.com');
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('retry-after'), '60');
    assert.is(limited.headers.get('access-control-allow-origin'), 'https://app.example.com');
    const stranger = await post('https://evil.example');
    assert.is(stranger.headers.get('access-control-allow-origin'), null);
    assert.is(stranger.headers.get('vary'), null);
  } finally {
    await service.close();
  }
});

test('the path as Koa would see it: an absolute-form target, an encoded calculator id, a repeated query parameter', async () => {
  const service = await startTestServer();
  const body = JSON.stringify(ANNUAL);
  const post = (target: string) =>
    rawRequest(service.url, `POST ${target} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`).response;
  try {
    assert.is((await post(`http://x${CALCULATE_PATH}`)).status, 200);
    assert.is((await post('/api/v1/calculators/au.income-tax%2Eannual/calculate')).status, 200);
    const repeated = await post(`${CALCULATE_PATH}?help=none&help=full`);
    assert.is(repeated.status, 400);
    assert.match(repeated.body, /must be given only once/);
    // A trailing slash is no calculate path: Koa answers it, with its near miss.
    const trailing = await post(`${CALCULATE_PATH}/`);
    assert.is(trailing.status, 404);
    assert.match(trailing.body, /no trailing slash/);
  } finally {
    await service.close();
  }
});

test('a client gone before its body arrived gets no answer, and its log line and metrics say 499', async () => {
  const metrics = createMetrics();
  const service = await startTestServer({ deps: { metrics } });
  try {
    const { socket, response } = rawRequest(service.url, `POST ${CALCULATE_PATH} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"facts":`);
    // Part of the body, then gone.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    for (let waited = 0; service.logs.length === 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is((await response).status, 0);
    assert.equal([service.logs[0]!.route, service.logs[0]!.status], ['/api/v1/calculators/:calculatorId/calculate', 499]);
    assert.match(await metrics.registry.metrics(), /^http_requests_total\{method="POST",route="\/api\/v1\/calculators\/:calculatorId\/calculate",status="499"\} 1$/m);
  } finally {
    await service.close();
  }
});

test('a client gone before its body arrived gets 499 on any route that reads a body, not only calculate', async () => {
  const service = await startTestServer({ config: { apiExtensions: new Set(['pay-runs']) } });
  try {
    const { socket, response } = rawRequest(service.url, `POST /api/v1/pay-runs HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"items":`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    for (let waited = 0; service.logs.length === 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is((await response).status, 0);
    assert.equal([service.logs[0]!.route, service.logs[0]!.status], ['/api/v1/pay-runs', 499]);
  } finally {
    await service.close();
  }
});

test('a calculation that fails unexpectedly answers 503 in the calculators\' shape, reported without its message', async () => {
  const reported: unknown[] = [];
  const runner: CalculationRunner = {
    size: 1,
    inUse: () => 0,
    tryAcquire: () => ({ run: () => Promise.reject(new Error('secret detail')), release: () => undefined }),
    close: async () => {},
  };
  const service = await startTestServer({ deps: { runner, reportFailure: (error) => reported.push(error) } });
  try {
    const failed = await calculate(service.url, 'au.income-tax.annual', ANNUAL);
    assert.is(failed.status, 503);
    const text = await failed.text();
    assert.is((JSON.parse(text) as { error: { _tag: string } }).error._tag, 'CalculatorAdmissionUnavailable');
    assert.not.match(text, /secret/);
    assert.match(failed.headers.get('x-request-id') ?? '', UUID);
    assert.is(reported.length, 1);
    assert.is(service.logs.at(-1)!.status, 503);
  } finally {
    await service.close();
  }
});

test('a failure of the frame after the answer is written is reported, and the answer stands', async () => {
  const reported: unknown[] = [];
  const service = await startTestServer({
    deps: {
      log: () => {
        throw new Error('log sink broken');
      },
      reportFailure: (error) => reported.push(error),
    },
  });
  try {
    const answered = await calculate(service.url, 'au.income-tax.annual', ANNUAL);
    assert.is(answered.status, 200);
    await answered.arrayBuffer();
    for (let waited = 0; reported.length === 0 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.is(reported.length, 1);
    assert.match(String(reported[0]), /log sink broken/);
  } finally {
    await service.close();
  }
});

test('a failure of the frame while it makes an error answer is reported, the connection closed, and the service goes on', async () => {
  const reported: unknown[] = [];
  let failures = 0;
  const runner: CalculationRunner = {
    size: 1,
    inUse: () => 0,
    tryAcquire: () => ({ run: () => (failures++ === 0 ? Promise.reject(new Error('secret detail')) : Promise.resolve({ kind: 'unavailable' })), release: () => undefined }),
    close: async () => {},
  };
  const service = await startTestServer({
    deps: {
      runner,
      // The report of the unexpected failure fails too, once: the frame cannot make the 503.
      reportFailure: (error) => {
        if (reported.push(error) === 1) throw new Error('report sink broken');
      },
    },
  });
  try {
    const failed = await calculate(service.url, 'au.income-tax.annual', ANNUAL).then(
      (response) => `answered ${response.status}`,
      (error: Error) => error.message,
    );
    assert.not.match(failed, /^answered/);
    assert.is(reported.length, 2);
    assert.match(String(reported[1]), /report sink broken/);
    // The process and its listener are unharmed: the next request is answered.
    const next = await calculate(service.url, 'au.income-tax.annual', ANNUAL);
    assert.is(next.status, 503);
    assert.is((JSON.parse(await next.text()) as { error: { _tag: string } }).error._tag, 'CalculatorAdmissionUnavailable');
  } finally {
    await service.close();
  }
});

test.run();
