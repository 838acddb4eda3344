import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pagesMissingFromNavigation, PAGE_TYPES, PRIMARY_READERS, type DocsSite } from '../../docs-site/index.ts';
import { projectDocsSite } from '../helpers/docs.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { servedPacks, startTestServer, type TestServer } from '../server/helpers.ts';
import { containsDocumented, documentedExamples } from './executable-examples.ts';

// The real documentation, compiled from its sources as a build (or a boot without a current build) does, served by the real app.
const CONTENT = fileURLToPath(new URL('../../docs-site/content/', import.meta.url));
const { catalog } = servedPacks();
let docs: DocsSite;
let server: TestServer;
// A page about a calculator served on request shows it started with TAX_YEARS=all CALCULATORS=all.
const onRequest = servedPacks({ taxYears: 'all', calculators: 'all' });
let everyCalculator: TestServer;

test.before(async () => {
  docs = await projectDocsSite(catalog);
  // Pay runs on, so that the guide to them runs as documented; they only add a route.
  const payRuns = { apiExtensions: new Set(['pay-runs'] as const) };
  server = await startTestServer({ config: payRuns, deps: { docs } });
  everyCalculator = await startTestServer({ config: payRuns, deps: { docs, catalog: onRequest.catalog, defaultTaxYear: onRequest.defaultTaxYear } });
});
test.after(async () => {
  await server.close();
  await everyCalculator.close();
});

/** The service an example is run against: plain npm start's, unless it names a calculator only served on request. */
function serviceFor(url: string): TestServer {
  const calculatorId = /\/api\/v1\/calculators\/([^/?]+)/.exec(url)?.[1];
  const onlyOnRequest = calculatorId !== undefined && catalog.withId(calculatorId).length === 0 && onRequest.catalog.withId(calculatorId).length > 0;
  return onlyOnRequest ? everyCalculator : server;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
}

test('the docs build (frontmatter, links, navigation) and every published page is in the navigation', () => {
  assert.ok(docs, 'docs-site/navigation.yaml exists');
  assert.equal(pagesMissingFromNavigation(docs), []);
  assert.ok(docs.paths().length >= 30);
});

test('every page type and primary reader of the contract is used', () => {
  const items = docs.navigation().flatMap((section) => [section, ...section.pages]);
  assert.equal([...new Set(items.map((item) => item.pageType))].sort(), [...PAGE_TYPES].sort());
  assert.equal([...new Set(items.map((item) => item.primaryReader))].sort(), [...PRIMARY_READERS].sort());
});

test('every navigation page loads through the page and markdown routes, and they agree', async () => {
  for (const item of docs.navigation().flatMap((section) => [section, ...section.pages])) {
    const page: any = await (await fetch(`${server.url}/api/v1/docs/page?path=${encodeURIComponent(item.path)}`)).json();
    assert.is(page.path, item.path);
    assert.is(page.frontmatter.title, item.title);
    const markdown = await fetch(`${server.url}/api/v1/docs/markdown?path=${encodeURIComponent(item.path)}`);
    assert.is(markdown.status, 200);
    assert.is(await markdown.text(), page.markdown, item.path);
  }
});

test('a search for each page title returns that page first', async () => {
  for (const item of docs.navigation().flatMap((section) => [section, ...section.pages])) {
    const results: any = await (await fetch(`${server.url}/api/v1/docs/search?term=${encodeURIComponent(item.title)}`)).json();
    assert.ok(results.length >= 1 && results.length <= 20, item.title);
    assert.is(results[0].path, item.path, `search for "${item.title}"`);
    assert.ok(results.every((result: any) => result.excerpt.length <= 240));
  }
});

const examples = markdownFiles(CONTENT).flatMap((file) => documentedExamples(relative(PROJECT_ROOT, file), readFileSync(file, 'utf8')));

test('the docs show executable requests', () => {
  assert.ok(examples.length >= 10, `found ${examples.length}`);
});

for (const example of examples) {
  test(`docs example runs as documented: ${example.file}:${example.line}`, async () => {
    const target = serviceFor(example.url);
    const url = example.url.replace(/^http:\/\/(127\.0\.0\.1|localhost):4000/, target.url);
    assert.ok(url.startsWith(target.url), `${example.url} uses the documented base address`);
    const response = await fetch(url, { method: example.method, headers: example.headers, ...(example.body === undefined ? {} : { body: example.body }) });
    const text = await response.text();
    if (example.documentedResponse === undefined) return;
    const actual = JSON.parse(text);
    const problem = containsDocumented(actual, example.documentedResponse);
    assert.is(problem, undefined, `${example.file}:${example.line}: ${problem}`);
  });
}

test.run();
