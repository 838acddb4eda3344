import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The decisions index is a hand-written table, so a new decision page can be left out of it (one
// was): every page in the folder must be linked from the index, in the navigation's order.
const folder = new URL('../../docs-site/content/decisions/', import.meta.url);
const pages = readdirSync(folder)
  .filter((name) => name.endsWith('.md') && name !== 'index.md')
  .map((name) => name.slice(0, -'.md'.length));
const index = readFileSync(new URL('index.md', folder), 'utf8');
const navigation = readFileSync(new URL('../../docs-site/navigation.yaml', import.meta.url), 'utf8');

test('every decision page is linked from the decisions index', () => {
  assert.equal(pages.filter((page) => !index.includes(`](${page}.md)`)), []);
});

test('the index lists the decisions in the order the navigation gives them', () => {
  const order = (text: string, pattern: (page: string) => string) => [...pages].sort((a, b) => text.indexOf(pattern(a)) - text.indexOf(pattern(b)));
  assert.equal(order(index, (page) => `](${page}.md)`), order(navigation, (page) => `/decisions/${page}\n`));
});

test.run();
