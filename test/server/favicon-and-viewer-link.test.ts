import { get } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildFixtureSite } from '../docs-site/helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// The site's icon, and the viewer's way back to the documentation.
let withDocs: TestServer;
let withoutDocs: TestServer;

test.before(async () => {
  withDocs = await startTestServer({ deps: { docs: buildFixtureSite() } });
  withoutDocs = await startTestServer();
});
test.after(async () => {
  await withDocs.close();
  await withoutDocs.close();
});

test('/favicon.ico is an icon, with or without the docs, through the request frame', async () => {
  for (const server of [withDocs, withoutDocs]) {
    const response = await fetch(`${server.url}/favicon.ico`);
    assert.is(response.status, 200);
    assert.is(response.headers.get('content-type'), 'image/x-icon');
    assert.ok(response.headers.get('x-request-id'), 'the request frame answered it');
    const body = Buffer.from(await response.arrayBuffer());
    // An icon directory (reserved 0, type 1) of at least one image.
    assert.equal([body.readUInt16LE(0), body.readUInt16LE(2)], [0, 1]);
    assert.ok(body.readUInt16LE(4) >= 1);
    assert.ok(body.length < 4096, `a small file (${body.length} bytes)`);
    assert.ok(server.logs.some((line) => line.route === '/favicon.ico' && line.status === 200), 'logged under its route');
  }
});

test('a browser that holds the icon gets a 304', async () => {
  const first = await fetch(`${withDocs.url}/favicon.ico`);
  const etag = first.headers.get('etag');
  assert.ok(etag);
  assert.match(first.headers.get('cache-control') ?? '', /max-age=\d+/);
  // Not fetch: with a condition it adds `cache-control: no-cache`, which asks the server for a 200.
  const status = await new Promise<number | undefined>((resolve, reject) => {
    get(`${withDocs.url}/favicon.ico`, { headers: { 'if-none-match': etag! } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).on('error', reject);
  });
  assert.is(status, 304);
});

test('the viewer links back to the documentation when the service serves it', async () => {
  const page = await (await fetch(`${withDocs.url}/api/docs`)).text();
  const link = /<a href="([^"]+)">[^<]*Documentation<\/a>/.exec(page);
  assert.ok(link, 'a link to the documentation');
  const target = await fetch(`${withDocs.url}${link![1]}`, { redirect: 'manual' });
  assert.is(target.status, 302, 'the link leads to the first page');
  assert.is((await fetch(`${withDocs.url}${link![1]}`)).status, 200);

  const bare = await (await fetch(`${withoutDocs.url}/api/docs`)).text();
  assert.not.match(bare, /Documentation<\/a>/, 'no link to documentation that is not served');
});

test.run();
