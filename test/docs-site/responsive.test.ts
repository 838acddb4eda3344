// Lane: services (npm run test:fast leaves this file out).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectDocsSite } from '../helpers/docs.ts';
import { shippedPacks } from '../helpers/packs.ts';
import { startTestServer, type TestServer } from '../server/helpers.ts';

// Every navigation page of the shipped docs in Debian's headless Chromium at a phone's width and a
// laptop's: the page never scrolls sideways, the navigation is reachable from the first screen,
// and code blocks and tables that are wider than the page scroll inside themselves. One browser and
// one tab, each docs page loaded once and looked at in both widths.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  console.log(`\nSKIPPED: the docs layout tests at 390 px and 1280 px need Chromium at ${CHROMIUM} (Debian package \`chromium\`; .ci/run installs it).\n`);
}

const SCREENS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

let server: TestServer;
let browser: Browser;
let paths: string[] = [];

const layout = suite('docs layout in a browser');

layout.before(async () => {
  if (!available) return;
  server = await startTestServer({ deps: { docs: await projectDocsSite(shippedPacks().catalog) } });
  const navigation: { primaryNavigation: { path: string; pages: { path: string }[] }[] } = await (await fetch(`${server.url}/api/v1/docs/navigation`)).json();
  paths = navigation.primaryNavigation.flatMap((section) => [section.path, ...section.pages.map((page) => page.path)]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
layout.after(async () => {
  if (!available) return;
  await browser.close();
  await server.close();
});

/** What one page of the docs looks like at the page's viewport, measured in the browser. */
interface Measured {
  /** How far the page could scroll sideways, in CSS pixels. */
  sideways: number;
  /** Code blocks and tables: whether each stays within the viewport, overflows itself and may scroll. */
  boxes: { tag: string; right: number; overflows: boolean; scrolls: boolean }[];
}

async function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const root = document.documentElement;
    window.scrollTo(root.scrollWidth, 0);
    const sideways = Math.max(root.scrollWidth - root.clientWidth, window.scrollX);
    window.scrollTo(0, 0);
    const boxes = [...document.querySelectorAll('main pre, main table')].map((element) => {
      const overflowX = getComputedStyle(element).overflowX;
      return {
        tag: element.tagName.toLowerCase(),
        right: element.getBoundingClientRect().right,
        overflows: element.scrollWidth > element.clientWidth,
        scrolls: overflowX === 'auto' || overflowX === 'scroll',
      };
    });
    return { sideways, boxes };
  });
}

/** Where the navigation's links are on the screen now: top of the first, and whether it can be seen. */
async function navigationPosition(page: Page): Promise<{ top: number; visible: boolean }> {
  return page.$eval('nav.site-navigation a', (link) => {
    const box = link.getBoundingClientRect();
    return { top: box.top, visible: box.width > 0 && box.height > 0 && getComputedStyle(link).visibility === 'visible' };
  });
}

/** What is wrong with the page now shown, at the screen it is shown on; and how many boxes scroll. */
async function problemsAt(page: Page, path: string, screen: (typeof SCREENS)[number]): Promise<{ problems: string[]; scrolling: number }> {
  const problems: string[] = [];
  let scrolling = 0;
  const at = `${path} at ${screen.width} px`;
  const { sideways, boxes } = await measure(page);
  if (sideways > 0) problems.push(`${at}: the page scrolls ${sideways} px sideways`);
  for (const box of boxes) {
    if (box.right > screen.width + 0.5) problems.push(`${at}: a ${box.tag} reaches ${Math.round(box.right)} px, past the screen`);
    if (box.overflows && !box.scrolls) problems.push(`${at}: a ${box.tag} is wider than its box and does not scroll`);
    if (box.overflows && box.scrolls) scrolling += 1;
  }

  let navigation = await navigationPosition(page);
  if (!navigation.visible) {
    // Hidden on a narrow screen: a link on the first screen opens it, at the top.
    const opener = page.locator('.site-header a[href="#site-navigation"]');
    const box = await opener.boundingBox();
    if (box === null || box.y + box.height > screen.height) {
      problems.push(`${at}: the navigation is hidden and no link on the first screen opens it`);
      return { problems, scrolling };
    }
    await opener.click();
    navigation = await navigationPosition(page);
  }
  if (!navigation.visible || navigation.top < 0 || navigation.top >= screen.height) {
    problems.push(`${at}: the navigation's first link is at ${Math.round(navigation.top)} px, not on the screen`);
  }
  const current = await page.$eval('nav.site-navigation a[aria-current="page"]', (link) => link.getBoundingClientRect().height > 0);
  if (!current) problems.push(`${at}: the current page is not shown in the navigation`);
  return { problems, scrolling };
}

(available ? layout : layout.skip)('every navigation page at 1280 and 390 px: no sideways scroll, navigation within one screen, code and tables scroll in place', async () => {
  assert.ok(paths.length > 20, `the navigation lists the pages (${paths.length})`);
  // Each page is loaded once, at the wide screen, then looked at again narrowed to the phone's.
  const page = await browser.newPage();
  const problems: string[] = [];
  const scrolling = new Map(SCREENS.map((screen) => [screen.width, 0]));
  for (const path of paths) {
    await page.setViewportSize(SCREENS[1]);
    const response = await page.goto(`${server.url}/docs${path}`);
    assert.is(response?.status(), 200, path);
    for (const screen of [SCREENS[1], SCREENS[0]]) {
      await page.setViewportSize(screen);
      const found = await problemsAt(page, path, screen);
      problems.push(...found.problems);
      scrolling.set(screen.width, scrolling.get(screen.width)! + found.scrolling);
    }
  }
  assert.equal(problems, []);
  // The pages hold code and tables wider than a phone: at that width many of them must scroll.
  assert.ok(scrolling.get(SCREENS[0].width)! > 10, `${scrolling.get(SCREENS[0].width)} code blocks or tables scroll inside themselves on a phone`);
  await page.close();
});

(available ? layout : layout.skip)('the search page fits a phone: results wrap, the page never scrolls sideways', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/docs/_search?term=ANSWER_BATCH_MAX`);
  assert.ok((await page.locator('.search-results li').count()) > 0, 'results');
  assert.is((await measure(page)).sideways, 0);
  await context.close();
});

layout.run();
