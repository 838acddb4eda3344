// Lane: services (npm run test:fast leaves this file out).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testOr } from '../helpers/skip.ts';
import { projectDocsSite } from '../helpers/docs.ts';
import { shippedPacks } from '../helpers/packs.ts';
import { startTestServer, type TestServer } from './helpers.ts';

// The HTML docs and the API reference viewer in a real browser: Debian's headless Chromium driven
// by playwright-core, against the shipped docs and packs.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const maybe = testOr(test, available ? undefined : `the browser tests of the HTML docs and the API reference viewer need Chromium at ${CHROMIUM} (Debian package \`chromium\`; .ci/run installs it)`);

let server: TestServer;
let browser: Browser;

test.before(async () => {
  if (!available) return;
  server = await startTestServer({ deps: { docs: await projectDocsSite(shippedPacks().catalog) } });
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

/** A page that records every request to another host and every content security policy refusal. */
async function watchedPage(): Promise<{ page: Page; foreign: string[]; refused: string[] }> {
  const page = await browser.newPage();
  const foreign: string[] = [];
  const refused: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.host !== new URL(server.url).host) foreign.push(url.host);
  });
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) refused.push(message.text());
  });
  return { page, foreign, refused };
}

// Links found on the docs pages, by the page they were found on; the link test follows them.
const linksByPage = new Map<string, string[]>();

maybe('every page in the navigation loads from /, styled, with nothing from outside', async () => {
  const navigation: { primaryNavigation: { path: string; title: string; pages: { path: string; title: string }[] }[] } = await (
    await fetch(`${server.url}/api/v1/docs/navigation`)
  ).json();
  const listed = navigation.primaryNavigation.flatMap((section) => [section, ...section.pages]);
  const { page, foreign, refused } = await watchedPage();

  const home = await page.goto(`${server.url}/`);
  assert.is(home?.status(), 200);
  assert.is(new URL(page.url()).pathname, `/docs${listed[0]!.path}`, '/ leads to the first page');
  const navigationLinks = await page.$$eval('nav.site-navigation a', (links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  assert.equal(navigationLinks, listed.map((entry) => `/docs${entry.path}`), 'the navigation lists the same pages as the API, in order');

  for (const entry of listed) {
    const url = `${server.url}/docs${entry.path}`;
    const response = await page.goto(url);
    assert.is(response?.status(), 200, entry.path);
    assert.is(await page.title(), entry === listed[0] ? entry.title : `${entry.title} · ${listed[0]!.title}`, `${entry.path} title`);
    assert.is(await page.$eval('a[aria-current="page"]', (link) => link.textContent), entry.title, `${entry.path} is marked current`);
    // The stylesheet arrived and applies: the navigation sits in a grid beside the page.
    assert.is(await page.$eval('.layout', (element) => getComputedStyle(element).display), 'grid', `${entry.path} is styled`);
    linksByPage.set(entry.path, await page.$$eval('a[href]', (links) => links.map((link) => (link as HTMLAnchorElement).href)));
  }
  assert.equal(foreign, [], 'no request leaves the service');
  assert.equal(refused, [], 'the policy refused nothing the page wanted');
  await page.close();
});

maybe('every link on those pages resolves, and every anchor names an element of its page', async () => {
  assert.ok(linksByPage.size > 0, 'the pages were visited');
  const origin = new URL(server.url).origin;
  const fetched = new Map<string, { status: number; text: string }>();
  const broken: string[] = [];
  let followed = 0;
  for (const [from, links] of linksByPage) {
    for (const link of links) {
      const url = new URL(link);
      if (url.origin !== origin) continue; // other sites are not reached from tests
      const target = url.origin + url.pathname + url.search;
      let result = fetched.get(target);
      if (result === undefined) {
        const response = await fetch(target);
        result = { status: response.status, text: await response.text() };
        fetched.set(target, result);
        followed += 1;
      }
      if (result.status !== 200) broken.push(`${from}: ${url.pathname}${url.search} answers ${result.status}`);
      else if (url.hash !== '' && !result.text.includes(`id="${decodeURIComponent(url.hash.slice(1))}"`)) broken.push(`${from}: ${url.pathname}${url.hash} has no such anchor`);
    }
  }
  assert.equal(broken, []);
  assert.ok(followed > linksByPage.size, `followed ${followed} distinct links`);
  assert.ok(fetched.has(`${origin}/api/docs`), 'the pages link to the API reference');
});

maybe('search finds a page by its title, and its result leads to the page', async () => {
  const { page } = await watchedPage();
  await page.goto(`${server.url}/docs/overview`);
  await page.fill('input[name="term"]', 'Read a trace');
  await Promise.all([page.waitForURL(/\/docs\/_search\?/), page.press('input[name="term"]', 'Enter')]);
  assert.is(await page.$eval('.search-results li a', (link) => link.textContent), 'Read a trace', 'the page with that title comes first');
  await Promise.all([page.waitForURL(/\/docs\/guides\/read-a-trace$/), page.click('.search-results li a')]);
  assert.is(await page.$eval('h1', (heading) => heading.textContent), 'Read a trace');
  await page.close();
});

maybe('the viewer renders every operation, from compressed assets of its own, with no authorization or validator', async () => {
  const document: any = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  const operations = Object.entries(document.paths).flatMap(([path, item]: [string, any]) => Object.keys(item).map((method) => ({ method, path })));
  const { page, foreign, refused } = await watchedPage();
  const encodings = new Map<string, string | undefined>();
  page.on('response', (response) => {
    if (response.url().includes('/api/docs/assets/')) encodings.set(new URL(response.url()).pathname, response.headers()['content-encoding']);
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
  assert.is(await page.locator('button.authorize').count(), 0, 'no Authorize button');
  assert.is(await page.locator('.validator-badge, img[src*="validator"]').count(), 0, 'no validator badge');
  assert.equal([...encodings.values()], ['br', 'br', 'br'], 'every asset arrived compressed with brotli');
  assert.equal(foreign, [], 'no request leaves the service');
  assert.equal(refused, [], 'the policy refused nothing the viewer wanted');
  await page.close();
});

maybe('Try it out → Execute on the calculate operation answers 200 at once, from the service it was served by', async () => {
  const { page, refused } = await watchedPage();
  await page.goto(`${server.url}/api/docs`);
  const operation = page.locator('#operations-Calculators-runCalculator');
  await operation.locator('.opblock-summary').first().click();
  await operation.locator('button.try-out__btn').click();
  // Nothing typed: the calculator id and the body are those the viewer starts with.
  const calculatorField = operation.locator('tr[data-param-name="calculatorId"] input, tr[data-param-name="calculatorId"] select').first();
  await calculatorField.waitFor();
  const calculatorId = await calculatorField.inputValue();
  const body = JSON.parse(await operation.locator('textarea.body-param__text').inputValue());
  const served: { calculators: { calculatorId: string }[] } = await (await fetch(`${server.url}/api/v1/calculators`)).json();
  assert.ok(served.calculators.some((entry) => entry.calculatorId === calculatorId), `the field starts with a served calculator (${JSON.stringify(calculatorId)})`);
  assert.ok(body.facts, 'the body starts with an example request');
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url().includes('/api/v1/calculators/') && response.request().method() === 'POST'),
    operation.locator('button.execute').click(),
  ]);
  assert.is(new URL(answer.url()).host, new URL(server.url).host, 'the request goes to the host the viewer came from');
  assert.is(new URL(answer.url()).pathname, `/api/v1/calculators/${calculatorId}/calculate`);
  assert.is(answer.status(), 200);
  await operation.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
  assert.is((await operation.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim(), '200');
  assert.equal(refused, []);
  await page.close();
});

maybe('the viewer leads back to the documentation', async () => {
  const { page } = await watchedPage();
  await page.goto(`${server.url}/api/docs`);
  const link = page.locator('a[href="/docs"]');
  assert.is(await link.count(), 1, 'a link to the documentation');
  await Promise.all([page.waitForURL(/\/docs\/overview$/), link.click()]);
  assert.ok((await page.$eval('h1', (heading) => heading.textContent))?.length, 'a docs page');
  await page.close();
});

test.run();
