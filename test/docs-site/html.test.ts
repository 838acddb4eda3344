import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite, DOCS_HTML_ASSETS } from '../../docs-site/index.ts';
import { buildFixtureSite, fixture, must, pageText } from './helpers.ts';

const generated = {
  path: '/reference/sample',
  source: 'test (generated)',
  markdown: pageText(
    [
      '# Sample',
      '',
      '| Fact | Shape |',
      '|---|---|',
      '| `grossPay` | money |',
      '',
      '[a script link](javascript:alert(1)) and [the glossary](/reference/glossary#terms) and [health](/api/health).',
      '',
      '![outside](https://example.com/tracker.png)',
    ].join('\n'),
    { title: 'Sample & <friends>' },
  ),
};
const site = buildFixtureSite('site/navigation.yaml', [generated]);
const page = (path: string): string => must(site.html.page(path), `HTML of ${path}`);

test('links between pages lead to their HTML pages, keeping anchors; other links stay as written', () => {
  const guide = page('/guides/read-a-trace');
  for (const href of ['/docs/concepts/traces', '/docs/concepts/traces#rounding', '/docs/guides', '/docs/concepts', '/docs/quickstart', '/docs/reference/glossary', '#step-2', '/api/docs', 'https://example.com/spec.md', 'mailto:docs@example.com']) {
    assert.ok(guide.includes(`href="${href}"`), href);
  }
  assert.ok(page('/quickstart').includes('href="/docs/guides/read-a-trace#step-2"'));
  assert.ok(page('/reference/sample').includes('href="/docs/reference/glossary#terms"'));
  assert.ok(page('/reference/sample').includes('href="/api/health"'), 'a service route is not a page');
});

test('headings carry the ids that anchors point to', () => {
  assert.ok(page('/guides/read-a-trace').includes('<h2 id="step-2">Step 2</h2>'));
  assert.ok(page('/concepts/traces').includes('<h2 id="rounding">Rounding</h2>'));
});

test('the page is the served Markdown: no MDX, code shown as text, GFM tables as tables', () => {
  const guide = page('/guides/read-a-trace');
  for (const gone of ['Callout type', 'callout text is MDX only', 'Badge', '{props.year}', 'export const meta']) assert.not.ok(guide.includes(gone), gone);
  assert.ok(guide.includes('[untouched](../nowhere.md) &#x3C;Callout /> {expression}'), 'code blocks keep their text, escaped');
  assert.ok(page('/reference/sample').includes('<td><code>grossPay</code></td>'));
});

test('nothing executable survives: no script, no javascript: link, titles escaped', () => {
  const sample = page('/reference/sample');
  assert.not.ok(/javascript:/i.test(sample));
  assert.ok(sample.includes('<title>Sample &#38; &#60;friends&#62; · '), 'the title is text, not markup');
  assert.ok(site.html.search('sample').includes('>Sample &#38; &#60;friends&#62;</a>'), 'so is a search result');
  for (const path of site.paths()) assert.not.ok(page(path).includes('<script'), path);
});

test('every page shares the frame: navigation with the current page marked, search box, stylesheet, source', () => {
  const traces = page('/concepts/traces');
  assert.ok(traces.includes('<a href="/docs/concepts/traces" aria-current="page">Traces</a>'));
  assert.is(traces.match(/aria-current/g)?.length, 1);
  for (const path of ['/guides', '/quickstart', '/guides/read-a-trace', '/concepts', '/reference', '/reference/glossary', '/reference/limits']) {
    assert.ok(traces.includes(`href="/docs${path}"`), `navigation links ${path}`);
  }
  assert.ok(traces.includes('<form class="search" role="search" action="/docs/_search" method="get">'));
  assert.ok(traces.includes(`<link rel="stylesheet" href="${DOCS_HTML_ASSETS}/${site.html.stylesheet.fileName}">`));
  assert.ok(traces.includes('<p class="page-source">Source: <code>test/fixtures/docs/site/content/concepts/traces.md</code></p>'));
  assert.not.ok(traces.includes('API reference'), 'no reference link unless the site is told where it is');
});

test('the API reference is linked from every page when the site knows its address', () => {
  const withReference = buildDocsSite({ contentDir: fixture('site/content'), navigationFile: fixture('site/navigation.yaml'), apiReferenceUrl: '/api/docs' });
  assert.ok(must(withReference.html.page('/quickstart'), 'quickstart').includes('<a class="api-reference" href="/api/docs">API reference</a>'));
});

test('home is the first page of the navigation; unknown pages have a not-found document', () => {
  assert.is(site.html.homeUrl, '/docs/guides');
  assert.is(site.html.page('/nowhere'), undefined);
  assert.is(site.html.page('/concepts/draft-idea'), undefined, 'drafts are not published');
  assert.ok(site.html.notFound.includes('<h1>Page not found</h1>'));
  assert.ok(site.html.notFound.includes('href="/docs/concepts/traces"'), 'the not-found page offers the navigation');
});

test('search results link to HTML pages; a refused term is explained and not repeated', () => {
  const results = site.html.search('traces');
  assert.ok(results.includes('<li><a href="/docs/concepts/traces">Traces</a>'));
  assert.ok(results.includes('value="traces"'), 'the search box keeps the term');
  assert.ok(site.html.search('zzzqqq').includes('No page matches that search.'));
  assert.ok(site.html.search('').includes('Type a word or phrase'));
  const refused = site.html.search('', 'Query parameter `term` must be short.');
  assert.ok(refused.includes('<p class="problem">Query parameter `term` must be short.</p>'));
  assert.ok(refused.includes('value=""'), 'the refused term is not put back in the box');
});

test('search results mark the matched words in their excerpts, and escape everything else', () => {
  const marked = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/marked', source: 'gen/marked', markdown: pageText('Quokkas & `<b>friends</b>`: a quokka’s "grin".\n', { title: 'Marsupials' }) },
  ]);
  const results = marked.html.search('quokka <i>');
  assert.ok(results.includes('<p><mark>Quokkas</mark> &#38; &#60;b&#62;friends&#60;/b&#62;: a <mark>quokka</mark>’s &#34;grin&#34;.</p>'), results);
  assert.not.ok(/<mark>[^<]*<(?!\/mark>)/.test(results), 'nothing but text inside a mark');
  assert.ok(results.includes('value="quokka &#60;i&#62;"'), 'the term is escaped in the search box');
});

test('the stylesheet is named by a hash of its text', () => {
  const { fileName, css } = site.html.stylesheet;
  assert.is(fileName, `docs.${createHash('sha256').update(css).digest('hex').slice(0, 12)}.css`);
  assert.ok(css.includes('.site-navigation'));
});

test('rendering is repeatable: the same page twice is the same text', () => {
  const again = buildFixtureSite('site/navigation.yaml', [generated]);
  for (const path of site.paths()) assert.is(page(path), again.html.page(path), path);
});

test.run();
