import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './helpers.ts';

// The reference viewer's page and files over HTTP: hashed names, compression, caching.
const PACKAGE_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const BUNDLE = readFileSync(join(PACKAGE_DIR, 'swagger-ui-bundle.js'));

let server: TestServer;
let assets: string[];

test.before(async () => {
  server = await startTestServer();
  const page = await (await fetch(`${server.url}/api/docs`)).text();
  assets = [...page.matchAll(/(?:href|src)="(\/api\/docs\/assets\/[^"]+)"/g)].map((match) => match[1]!);
});
test.after(() => server.close());

interface BytesResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

// fetch would add its own Accept-Encoding and decode the body; these tests need both untouched.
function getBytes(path: string, headers: Record<string, string> = {}): Promise<BytesResponse> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const bundlePath = (): string => {
  const path = assets.find((asset) => asset.includes('swagger-ui-bundle.'));
  if (path === undefined) assert.unreachable('the page loads the bundle');
  return path as string;
};

test('the page loads its stylesheet and scripts under hashed names, and sets a policy', async () => {
  assert.is(assets.length, 3);
  for (const asset of assets) assert.match(asset, /^\/api\/docs\/assets\/(swagger-ui|swagger-ui-bundle|start)\.[0-9a-f]{12}\.(css|js)$/);
  const response = await fetch(`${server.url}/api/docs`);
  const policy = response.headers.get('content-security-policy') ?? '';
  assert.ok(policy.includes("script-src 'self'"), policy);
  assert.ok(policy.includes("connect-src 'self'"), policy);
  assert.not.ok(/https?:/.test(policy), 'no outside origin is allowed');
});

test('the start script turns the outside validator off', async () => {
  const start = assets.find((asset) => asset.includes('/start.'));
  const text = await (await fetch(`${server.url}${start}`)).text();
  assert.ok(text.includes('validatorUrl: null'));
});

test('brotli when accepted (whatever the order), else gzip, else the plain bytes', async () => {
  const path = bundlePath();
  const br = await getBytes(path, { 'accept-encoding': 'gzip, deflate, br, zstd' });
  assert.is(br.status, 200);
  assert.is(br.headers['content-encoding'], 'br');
  assert.ok(br.body.length < BUNDLE.length / 3, `compressed to ${br.body.length} bytes`);
  assert.ok(brotliDecompressSync(br.body).equals(BUNDLE));

  const gzip = await getBytes(path, { 'accept-encoding': 'br;q=0, gzip' });
  assert.is(gzip.headers['content-encoding'], 'gzip');
  assert.ok(gunzipSync(gzip.body).equals(BUNDLE));

  const plain = await getBytes(path);
  assert.is(plain.headers['content-encoding'], undefined);
  assert.ok(plain.body.equals(BUNDLE));
  for (const response of [br, gzip, plain]) {
    assert.is(response.headers['content-type'], 'application/javascript; charset=utf-8');
    assert.is(response.headers['vary'], 'accept-encoding');
    assert.is(response.headers['cache-control'], 'public, max-age=31536000, immutable');
  }
  assert.is(new Set([br, gzip, plain].map((response) => response.headers['etag'])).size, 3, 'each encoding has its own tag');
});

test('a client that holds the current file gets 304 and no body', async () => {
  const path = bundlePath();
  const first = await getBytes(path, { 'accept-encoding': 'br' });
  const again = await getBytes(path, { 'accept-encoding': 'br', 'if-none-match': String(first.headers['etag']) });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  const otherEncoding = await getBytes(path, { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers['etag']) });
  assert.is(otherEncoding.status, 200, 'a tag of another encoding does not match');
});

test('unknown or unhashed asset names are not found', async () => {
  for (const name of ['swagger-ui-bundle.js', 'swagger-ui.css', 'start.js', 'swagger-ui-bundle.000000000000.js']) {
    const response = await fetch(`${server.url}/api/docs/assets/${name}`);
    assert.is(response.status, 404, name);
    assert.is((await response.json())._tag, 'RouteNotFound');
  }
});

test('the description names a relative server and offers no authorization', async () => {
  const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  assert.equal(document.servers.map((entry: { url: string }) => entry.url), ['/']);
  assert.not.ok('securitySchemes' in document.components);
  // `security: []` says outright that no operation needs credentials; it offers no authorization.
  assert.equal(document.security ?? [], []);
  for (const [name, entries] of Object.entries(document.components)) assert.ok(Object.keys(entries as object).length > 0, `components.${name} is not empty`);
});

test.run();
