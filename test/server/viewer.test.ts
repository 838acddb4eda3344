import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from './helpers.ts';

// The reference viewer in a real browser: Debian's headless Chromium driven by playwright-core.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  console.log(`\nSKIPPED: the API reference viewer browser test needs Chromium at ${CHROMIUM} (Debian package \`chromium\`; .ci/run installs it).\n`);
}
const maybe = available ? test : test.skip;

let server: TestServer;
let browser: Browser;

test.before(async () => {
  if (!available) return;
  server = await startTestServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
test.after(async () => {
  if (!available) return;
  await browser.close();
  await server.close();
});

maybe('the viewer renders every operation of the API description, using only our own assets', async () => {
  const document: any = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) => Object.keys(item).map((method) => ({ method, path })));
  const page = await browser.newPage();
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.host !== new URL(server.url).host) foreign.push(url.host);
  });
  const response = await page.goto(`${server.url}/api/docs`);
  assert.is(response?.status(), 200);
  await page.waitForFunction((count) => document.querySelectorAll('.opblock').length >= count, operations.length, { timeout: 15000 });
  const rendered = await page.$$eval('.opblock', (blocks) =>
    blocks.map((block) => ({
      method: block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase(),
      path: block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? block.querySelector('.opblock-summary-path')?.textContent?.trim(),
    })),
  );
  for (const operation of operations) {
    assert.ok(
      rendered.some((block) => block.method === operation.method && block.path?.replace(/\u200b/g, '') === operation.path),
      `${operation.method.toUpperCase()} ${operation.path} is rendered`,
    );
  }
  assert.equal(foreign, [], 'no request leaves the service');
  await page.close();
});

test.run();
