import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../docs-site/index.ts';
import { payFacts } from '../helpers/packs.ts';
import { responseValidators } from './openapi-check.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import { rawRequest } from './raw-http.ts';

// Paths are matched exactly, and one rule holds for query strings on every operation of the description.
const FIXTURE_DOCS = fileURLToPath(new URL('../fixtures/docs/site/', import.meta.url));
let server: TestServer;
let document: any;
let check: ReturnType<typeof responseValidators>;

test.before(async () => {
  const docs = buildDocsSite({ contentDir: `${FIXTURE_DOCS}content`, navigationFile: `${FIXTURE_DOCS}navigation.yaml` });
  server = await startTestServer({ deps: { docs } });
  document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  check = responseValidators(document);
});
test.after(() => server.close());

const CALCULATE_BODY = JSON.stringify({ facts: payFacts(165400, 'weekly', true) });

async function notFound(path: string, method = 'GET'): Promise<string> {
  const response = await fetch(`${server.url}${path}`, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: CALCULATE_BODY } : { method });
  assert.is(response.status, 404, path);
  const body: any = await response.json();
  assert.is(body._tag, 'RouteNotFound', path);
  return body.message;
}

test('a trailing slash names no route, and the 404 says so', async () => {
  for (const path of ['/api/v1/calculators/', '/api/health/', '/api/v1/calculators/au.pay.take-home/', '/api/v1/calculators/au.pay.take-home/schema/']) {
    assert.match(await notFound(path), 'no trailing slash', path);
  }
  assert.match(await notFound('/api/v1/calculators/au.pay.take-home/calculate/', 'POST'), 'no trailing slash');
});

test('an empty calculator id names no route: the 404 documented on those operations', async () => {
  assert.match(await notFound('/api/v1/calculators//calculate', 'POST'), 'segment is empty');
  assert.match(await notFound('/api/v1/calculators//schema'), 'segment is empty');
  assert.match(await notFound('/api/v1/calculators//graph'), 'segment is empty');
  const validate = check('/api/v1/calculators/{calculatorId}/calculate', 'post', 404);
  const response = await fetch(`${server.url}/api/v1/calculators//calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CALCULATE_BODY });
  assert.ok(validate(await response.json()), JSON.stringify(validate.errors));
});

test('paths are case-sensitive, as the description writes them', async () => {
  await notFound('/API/health');
  await notFound('/api/v1/Calculators');
});

test('an id outside the pattern is still the documented 400 UnsupportedCalculatorError', async () => {
  const response = await fetch(`${server.url}/api/v1/calculators/AU.PAY`);
  assert.is(response.status, 400);
  const body: any = await response.json();
  assert.ok(check('/api/v1/calculators/{calculatorId}', 'get', 400)(body));
  assert.equal(body.error, { _tag: 'UnsupportedCalculatorError', message: body.error.message, requestedCalculator: '(unrecognised identifier)' });
});

/** A request that the operation answers with 200, for every operation of the description. */
function validRequest(path: string, method: string, operation: any): { url: string; init: RequestInit } {
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    // The fixture site has no /overview, the description's example page.
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, parameter.name === 'path' ? '/quickstart' : parameter.schema.examples[0]);
  }
  const url = `${path.replace('{calculatorId}', 'au.pay.take-home')}?${query}`;
  const init: RequestInit = method === 'post' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: CALCULATE_BODY } : {};
  return { url, init };
}

test('one rule for every operation: a query parameter the route does not take is a documented 400', async () => {
  let operations = 0;
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const { url, init } = validRequest(path, method, operation);
      const ok = await fetch(`${server.url}${url}`, init);
      assert.is(ok.status, 200, `${method} ${url}`);
      await ok.arrayBuffer();
      const refused = await fetch(`${server.url}${url}&unexpectedName=1`, init);
      assert.is(refused.status, 400, `${method} ${path} with an unknown parameter`);
      const body: any = await refused.json();
      const validate = check(path, method, 400);
      assert.ok(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`);
      const error = body.error ?? body;
      assert.ok(['CalculatorInputDecodeError', 'DocsQueryInvalid'].includes(error._tag), `${method} ${path}: ${error._tag}`);
      assert.match(error.message ?? '', path.startsWith('/api/v1/docs/') ? 'Unknown query parameter' : 'could not be decoded');
      operations += 1;
    }
  }
  assert.is(operations, 16);
});

// A query of thousands of parameters cost time growing with the square of their number (every value
// of a repeated name was looked up again for each); now a query over the bound is refused unread.
test('a query over 2,048 characters or 16 parameters is refused unread on every operation, in its documented 400, without its values', async () => {
  const oversized = ['a=1&'.repeat(3500), `${'b'.repeat(2048)}=1`, Array.from({ length: 17 }, (_, index) => `p${index}=1`).join('&')];
  let operations = 0;
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const { url, init } = validRequest(path, method, operation);
      for (const extra of oversized) {
        const refused = await fetch(`${server.url}${url}&${extra}`, init);
        assert.is(refused.status, 400, `${method} ${path}`);
        const text = await refused.text();
        const body: any = JSON.parse(text);
        const validate = check(path, method, 400);
        assert.ok(validate(body), `${method} ${path}: ${JSON.stringify(validate.errors)}`);
        const error = body.error ?? body;
        const message = error.issues?.[0]?.message ?? error.message;
        assert.is(message, 'The query string is too large; a query may have at most 2,048 characters and 16 parameters.', `${method} ${path}`);
        assert.is(error.issues?.length ?? 1, 1, `${method} ${path}: one issue, not one per parameter`);
        assert.not.match(text, /a=1|bbbb|p16/, `${method} ${path} echoes the query`);
      }
      // At the bound, the query is read as usual: here, one unknown parameter among sixteen.
      const atBound = Array.from({ length: 16 - new URLSearchParams(url.split('?')[1]).size }, (_, index) => `p${index}=1`).join('&');
      const read = await fetch(`${server.url}${url}&${atBound}`, init);
      assert.is(read.status, 400, `${method} ${path} at the bound`);
      assert.match(await read.text(), 'Unknown query parameter', `${method} ${path} at the bound`);
      operations += 1;
    }
  }
  assert.is(operations, 16);
});

test('after refusing a query over the bound the service closes the connection, so each such request costs its client a connection', async () => {
  for (const head of [
    `GET /api/health?${'a=1&'.repeat(3500)} HTTP/1.1\r\nhost: x\r\n\r\n`,
    `POST /api/v1/calculators/au.pay.take-home/calculate?${'a=1&'.repeat(3500)} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${CALCULATE_BODY.length}\r\n\r\n${CALCULATE_BODY}`,
  ]) {
    const answer = await rawRequest(server.url, head).response;
    assert.is(answer.status, 400, head.slice(0, 30));
    assert.is(answer.headers.connection, 'close', head.slice(0, 30));
    assert.ok(answer.closed, head.slice(0, 30));
  }
});

test('the HTML search page refuses a query over the bound with its own 400 page', async () => {
  const response = await fetch(`${server.url}/docs/_search?term=tax&${'a=1&'.repeat(3500)}`);
  assert.is(response.status, 400);
  assert.is(response.headers.get('content-type'), 'text/html; charset=utf-8');
  const page = await response.text();
  assert.match(page, 'The query string is too large');
  assert.not.match(page, 'a=1');
});

// The service compiles each schema the first time it validates: every query parameter of every
// operation, given a value it accepts and one it refuses, must be answered without a server error.
test('every query parameter of every operation is validated, whatever its value', async () => {
  let parameters = 0;
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const { url, init } = validRequest(path, method, operation);
      for (const parameter of (operation.parameters ?? []).filter((candidate: any) => candidate.in === 'query')) {
        for (const value of [parameter.schema.examples?.[0] ?? 'x', '\u0000%not-a-value%']) {
          const query = new URL(url, server.url);
          query.searchParams.set(parameter.name, value);
          const response = await fetch(query, init);
          assert.ok(response.status < 500, `${method} ${path} with ${parameter.name}: ${response.status}`);
          await response.arrayBuffer();
        }
        parameters += 1;
      }
    }
  }
  assert.ok(parameters >= 10, `${parameters} query parameters`);
});

test.run();
