import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXCERPT_MAX_LENGTH, SEARCH_RESULT_LIMIT, type DocsSite, type GeneratedPage, type SearchResult } from '../../docs-site/index.ts';
import { highlightsIn } from '../../docs-site/lib/search.ts';
import { buildFixtureSite, must, pageText } from './helpers.ts';

const site = buildFixtureSite();
const paths = (results: SearchResult[]): string[] => results.map((result) => result.path);

const ranking = suite('search ranking');

ranking('searching a page title returns that page first, for every page', () => {
  for (const path of site.paths()) {
    const title = must(site.page(path)?.frontmatter.title, `title of ${path}`);
    assert.is(site.search(title)[0]?.path, path, title);
  }
});

ranking('title matches rank above pages that only mention the term in their text', () => {
  const results = paths(site.search('traces'));
  assert.is(results[0], '/concepts/traces');
  // "Read a trace" matches "traces" by stem in its title; the others only in their text.
  assert.is(results[1], '/guides/read-a-trace');
  assert.ok(results.includes('/quickstart'));
});

ranking('search is case-insensitive and matches other forms of a word', () => {
  assert.equal(site.search('ROUNDING'), site.search('rounding'));
  assert.is(site.search('rounding')[0]?.path, '/concepts/traces');
  // "calculations" and "calculation" share a stem; the excerpt quotes the form the page uses.
  const [hit] = site.search('calculations');
  assert.ok(hit?.excerpt.toLowerCase().includes('calculation'), hit?.excerpt);
});

ranking('results have the contract fields', () => {
  const [first] = site.search('glossary');
  assert.equal(Object.keys(first ?? {}), ['description', 'excerpt', 'path', 'title']);
  assert.is(first?.title, 'Glossary');
  assert.is(first?.description, 'Terms used across the documentation.');
});

ranking('draft pages are never found', () => {
  assert.equal(site.search('zanzibar'), []);
  assert.equal(site.search('unfinished'), []);
});

ranking('words outside the Latin alphabet are indexed too', () => {
  const unicode = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/unicode', source: 'gen/unicode', markdown: pageText('Das Wort „Überweisung“ steht hier, 税金。\n') },
  ]);
  assert.is(unicode.search('überweisung')[0]?.path, '/generated/unicode');
  assert.is(unicode.search('税金')[0]?.path, '/generated/unicode');
});

ranking.run();

const excerpts = suite('search excerpts');

excerpts('the excerpt is the passage around the first match, not the page opening', () => {
  const result = must(site.search('rounding').find((r) => r.path === '/concepts/traces'), 'the traces page');
  assert.ok(result.excerpt.startsWith('…'), result.excerpt);
  assert.ok(result.excerpt.includes('Rounding Withholding amounts follow the published rounding method'), result.excerpt);
  assert.not.ok(result.excerpt.includes('A calculation returns its result'), result.excerpt);
  assert.ok(result.excerpt.length <= EXCERPT_MAX_LENGTH);
});

excerpts('a long page gives a cut excerpt of at most 240 characters, cut between words', () => {
  const words = Array.from({ length: 200 }, (_, i) => `filler${i}`).join(' ');
  const long = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/long', source: 'gen/long', markdown: pageText(`${words} needle ${words}\n`) },
  ]);
  const [result] = long.search('needle');
  const excerpt = must(result?.excerpt, 'a result');
  assert.ok(excerpt.length <= EXCERPT_MAX_LENGTH, `${excerpt.length}`);
  assert.ok(excerpt.length > 200, 'the excerpt uses most of its budget');
  assert.ok(excerpt.includes(' needle '));
  assert.match(excerpt, /^…filler\d+ .* filler\d+…$/);
});

excerpts('whitespace in the excerpt is collapsed', () => {
  for (const result of site.search('trace')) assert.not.match(result.excerpt, /\s{2}|\n/);
});

excerpts('when the term is only in the title, the excerpt is the description', () => {
  const titled = buildFixtureSite('site/navigation.yaml', [
    { path: '/generated/titled', source: 'gen/titled', markdown: pageText('Nothing to see.\n', { title: 'Quokka facts', description: 'About marsupials.' }) },
  ]);
  assert.equal(titled.search('quokka'), [{ description: 'About marsupials.', excerpt: 'About marsupials.', path: '/generated/titled', title: 'Quokka facts' }]);
});

excerpts('excerpts are plain prose: table cells apart without pipes, no code blocks, no Markdown', () => {
  const tabled = buildFixtureSite('site/navigation.yaml', [
    {
      path: '/generated/tabled',
      source: 'gen/tabled',
      markdown: pageText(
        [
          'The wombat table lists burrows.',
          '',
          '| Burrow | Depth |',
          '|---|---|',
          '| `north` | two **metres** |',
          '| south | three metres |',
          '',
          '```json',
          '{"wombat": {"_tag": "Burrow", "depth": 2}}',
          '```',
          '',
          'After the code, the wombat sleeps.',
        ].join('\n'),
        { title: 'Burrows', description: 'Where wombats live.' },
      ),
    },
  ]);
  const [hit] = tabled.search('wombat');
  const excerpt = must(hit?.excerpt, 'a result');
  assert.is(excerpt, 'The wombat table lists burrows. Burrow · Depth; north · two metres; south · three metres After the code, the wombat sleeps.');
  const [inCodeOnly] = tabled.search('_tag');
  assert.is(inCodeOnly?.path, '/generated/tabled', 'code is still searched');
  assert.is(inCodeOnly?.excerpt, 'Where wombats live.', 'but not quoted: the description stands in');
});

excerpts('the words an excerpt was cut around are the ones highlighted', () => {
  const text = 'Calculated figures: a calculation, recalculated, and calc.';
  const marked = highlightsIn(text, 'calculations').map(({ start, end }) => text.slice(start, end));
  assert.equal(marked, ['Calculated', 'calculation'], 'words starting with the term or its stem, not inside other words');
  assert.equal(highlightsIn(text, 'the'), [], 'stop words are not highlighted');
  assert.equal(highlightsIn('a.b (x', '.( x'), [{ start: 5, end: 6 }], 'punctuation in the term is not a pattern');
});

excerpts.run();

const limits = suite('search limits and hostile terms');

limits('at most 20 results even when 30 pages match', () => {
  const many: GeneratedPage[] = Array.from({ length: 30 }, (_, i) => ({
    path: `/generated/payroll-${i}`,
    source: `gen/payroll-${i}`,
    markdown: pageText(`Payroll page number ${i}.\n`, { title: `Payroll ${i}` }),
  }));
  const big = buildFixtureSite('site/navigation.yaml', many);
  const results = big.search('payroll');
  assert.is(results.length, SEARCH_RESULT_LIMIT);
  assert.is(new Set(paths(results)).size, SEARCH_RESULT_LIMIT, 'no page twice');
});

limits('stop words and punctuation alone find nothing, without failing', () => {
  for (const term of ['the', 'and of the', '?', '...', '***', '()[]{}', '-', '—', '   ']) assert.equal(site.search(term), [], term);
});

const hostile = [
  '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'docs', 'df',
  '.*', '(', ')', '[', '\\', '^$', '(?<x>a)', 'a|b', '+?', '\u0000', '\uD800', '\uDFFF', '🧾🧾', 'e\u0301', 'İ', 'ß', 'ﬁ',
  '<script>alert(1)</script>', "'; DROP TABLE pages; --", '%00', 'x'.repeat(100), '1e309', 'NaN', 'null', 'undefined',
];

limits('hostile terms never throw and still respect the limits', () => {
  for (const term of hostile) {
    let results: SearchResult[] = [];
    try {
      results = site.search(term);
    } catch (error) {
      assert.unreachable(`search(${JSON.stringify(term)}) threw ${String(error)}`);
    }
    assertWithinContract(results, term);
  }
});

limits('any string of 1 to 100 characters is searched without throwing', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 100, unit: 'grapheme' }), (term) => {
      assertWithinContract(site.search(term), term);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 100, unit: 'binary' }), (term) => {
      assertWithinContract(site.search(term), term);
    }),
    { numRuns: 300 },
  );
});

limits('search stays correct after hostile terms (no shared state was corrupted)', () => {
  for (const term of hostile) site.search(term);
  assert.is(site.search('Read a trace')[0]?.path, '/guides/read-a-trace');
});

function assertWithinContract(results: SearchResult[], term: string): void {
  assert.ok(Array.isArray(results), term);
  assert.ok(results.length <= SEARCH_RESULT_LIMIT, term);
  for (const result of results) {
    assert.ok(result.excerpt.length <= EXCERPT_MAX_LENGTH, term);
    assert.ok(result.title !== '' && result.description !== '' && result.path !== '', term);
  }
}

// Keeps the site type in use so an accidental change to `search`'s signature fails to compile here.
export type SearchSignature = DocsSite['search'];

limits.run();
