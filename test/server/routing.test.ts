import Router from '@koa/router';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DocsSite } from '../../docs-site/index.ts';
import type { RequestState } from '../../server/http/context.ts';
import type { MetadataSource } from '../../server/catalog/metadata.ts';
import { OPERATIONS } from '../../server/contract/operations.ts';
import { registerOperations } from '../../server/http/routing.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// The operations table registers the routes: every operation answers at its path and method, HEAD
// wherever GET, 405 elsewhere on its path, and an unexpected failure answers as its kind of operation.

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after(() => server.close());

const urlOf = (path: string) => `${server.url}${path.replace('{calculatorId}', 'au.pay.take-home')}`;

test('every operation of the table is answered at its path and method, and HEAD wherever GET', async () => {
  for (const operation of OPERATIONS) {
    const response = await fetch(urlOf(operation.path), { method: operation.method.toUpperCase() });
    const body = await response.text();
    const unrouted = response.status === 405 || (response.status === 404 && body.includes('RouteNotFound'));
    assert.not.ok(unrouted, `${operation.operationId}: ${response.status}`);
    if (operation.method !== 'get') continue;
    const head = await fetch(urlOf(operation.path), { method: 'HEAD' });
    assert.is(head.status, response.status, `HEAD ${operation.operationId}`);
    assert.is(await head.text(), '', `HEAD ${operation.operationId} has no body`);
  }
});

test('another method on an operation\'s path is 405, allowing what the router answers there', async () => {
  const search = await fetch(`${server.url}/api/v1/docs/search?term=tax`, { method: 'PUT' });
  assert.is(search.status, 405);
  assert.is(search.headers.get('allow'), 'GET, HEAD');
  const calculate = await fetch(urlOf('/api/v1/calculators/{calculatorId}/calculate'), { method: 'PATCH' });
  assert.is(calculate.status, 405);
  assert.is(calculate.headers.get('allow'), 'POST');
});

test('the table and the handlers must name the same operations', () => {
  const router = new Router<RequestState>();
  const handlers = Object.fromEntries(OPERATIONS.map((operation) => [operation.operationId, () => undefined]));
  const { getHealth: _left, ...missingOne } = handlers;
  assert.throws(() => registerOperations(router, OPERATIONS, missingOne), /getHealth has no handler/);
  assert.throws(() => registerOperations(router, OPERATIONS, { ...handlers, deleteEverything: () => undefined }), /deleteEverything/);
});

test('an unexpected failure answers as the kind of operation that failed, whatever its path', async () => {
  const broken = () => Promise.reject(new Error('broken'));
  const metadata: MetadataSource = { jurisdictions: broken, taxYears: broken, calculators: broken, calculator: broken, schema: broken, graph: broken, facts: broken, rules: broken };
  const fail = () => {
    throw new Error('broken');
  };
  const docs = { navigation: fail, page: fail, markdown: fail, search: fail } as unknown as DocsSite;
  const failing = await startTestServer({ deps: { metadata, docs } });
  try {
    const rules = await fetch(`${failing.url}/api/v1/rules`);
    assert.is(rules.status, 503);
    assert.is((await rules.json()).error._tag, 'CalculatorAdmissionUnavailable');
    const page = await fetch(`${failing.url}/api/v1/docs/page?path=/overview`);
    assert.is(page.status, 503);
    assert.is((await page.json())._tag, 'DocsSearchUnavailable');
  } finally {
    await failing.close();
  }
});

test.run();
