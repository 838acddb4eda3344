import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../docs-site/index.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// The HTML edition of the docs over HTTP, on the fixture site (its first section is /guides).
const FIXTURE_DOCS = fileURLToPath(new URL('../fixtures/docs/site/', import.meta.url));
const EXPECTED_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

let server: TestServer;
let bare: TestServer;

test.before(async () => {
  const docs = buildDocsSite({ contentDir: `${FIXTURE_DOCS}content`, navigationFile: `${FIXTURE_DOCS}navigation.yaml`, apiReferenceUrl: '/api/docs' });
  server = await startTestServer({ deps: { docs } });
  bare = await startTestServer();
});
test.after(async () => {
  await server.close();
  await bare.close();
});

const get = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { redirect: 'manual', ...init });

function assertHtmlPage(response: Response, status: number, what: string): void {
  assert.is(response.status, status, `${what} status`);
  assert.is(response.headers.get('content-type'), 'text/html; charset=utf-8', `${what} type`);
  assert.is(response.headers.get('content-security-policy'), EXPECTED_CSP, `${what} policy`);
  assert.is(response.headers.get('x-content-type-options'), 'nosniff', `${what} nosniff`);
}

test('/ and /docs lead to the first page of the navigation', async () => {
  for (const url of ['/', '/docs', '/docs/']) {
    const response = await get(url);
    assert.is(response.status, 302, url);
    assert.is(response.headers.get('location'), '/docs/guides', url);
  }
});

test('a page is served as HTML under a policy that allows only the site itself', async () => {
  const response = await get('/docs/concepts/traces');
  assertHtmlPage(response, 200, 'page');
  assert.is(response.headers.get('cache-control'), 'no-cache');
  const html = await response.text();
  assert.ok(html.startsWith('<!doctype html>'));
  assert.ok(html.includes('<h1 id="traces">Traces</h1>'));
  assert.ok(html.includes('<a class="api-reference" href="/api/docs">API reference</a>'));
});

test('HEAD answers like GET without a body', async () => {
  const response = await get('/docs/concepts/traces', { method: 'HEAD' });
  assert.is(response.status, 200);
  assert.is(await response.text(), '');
});

test('an address that is no page gets the HTML not-found page, drafts included', async () => {
  for (const url of ['/docs/nowhere', '/docs/concepts/draft-idea', '/docs/Concepts/Traces', '/docs/concepts/traces.md', '/docs/_assets/docs.000000000000.css']) {
    const response = await get(url);
    assertHtmlPage(response, 404, url);
    assert.ok((await response.text()).includes('<h1>Page not found</h1>'), url);
  }
});

test('a trailing slash leads to the page without it', async () => {
  const response = await get('/docs/concepts/');
  assert.is(response.status, 301);
  assert.is(response.headers.get('location'), '/docs/concepts');
});

test('other methods on docs addresses are refused with the allowed ones', async () => {
  const response = await get('/docs/concepts/traces', { method: 'POST' });
  assert.is(response.status, 405);
  assert.is(response.headers.get('allow'), 'GET, HEAD');
});

test('search lists matching pages; spaces around the term are ignored', async () => {
  for (const term of ['traces', '  traces ']) {
    const response = await get(`/docs/_search?term=${encodeURIComponent(term)}`);
    assertHtmlPage(response, 200, `search for ${JSON.stringify(term)}`);
    assert.ok((await response.text()).includes('<a href="/docs/concepts/traces">Traces</a>'), term);
  }
  const empty = await get('/docs/_search');
  assertHtmlPage(empty, 200, 'search page');
  assert.ok((await empty.text()).includes('Type a word or phrase'));
});

test('a term the API would refuse is refused here too, with its rule and without the value', async () => {
  const long = 'x'.repeat(101);
  for (const query of ['term=', `term=${long}`, 'term=a&term=b', 'term=traces&page=2']) {
    const response = await get(`/docs/_search?${query}`);
    assertHtmlPage(response, 400, query);
    const html = await response.text();
    assert.ok(html.includes('<p class="problem">'), query);
    assert.not.ok(html.includes(long), 'the value is not echoed');
  }
});

test('the stylesheet is served under its hashed name, for good', async () => {
  const page = await (await get('/docs/guides')).text();
  const href = must(/<link rel="stylesheet" href="([^"]+)">/.exec(page)?.[1]);
  assert.match(href, /^\/docs\/_assets\/docs\.[0-9a-f]{12}\.css$/);
  const response = await get(href);
  assert.is(response.status, 200);
  assert.is(response.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.is(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.ok((await response.text()).includes('.site-navigation'));
});

test('without docs the service answers / and /docs like any unknown route', async () => {
  for (const url of ['/', '/docs', '/docs/guides']) {
    const response = await fetch(`${bare.url}${url}`, { redirect: 'manual' });
    assert.is(response.status, 404, url);
    assert.is((await response.json())._tag, 'RouteNotFound', url);
  }
  assert.is((await fetch(`${bare.url}/docs/guides`, { method: 'POST' })).status, 404, 'no 405 for routes that do not exist');
});

function must(value: string | undefined): string {
  if (value === undefined) assert.unreachable('expected a value');
  return value as string;
}

test.run();
