import elasticlunr from 'elasticlunr';
import { SEARCH_RESULT_LIMIT, type SearchResult } from './contract.ts';
import { excerptAround, matchingWords, shorten, type TextRange } from './excerpt.ts';

/** What search needs to know about a published page. */
export interface SearchablePage {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /** The page's plain text, whitespace collapsed: what the index holds. */
  readonly text: string;
  /** The page's prose (its text without code blocks): what excerpts quote. */
  readonly excerptText: string;
}

/** What search keeps of a page to answer with: all but the text, which only the index needs. */
type StoredPage = Omit<SearchablePage, 'text'>;

interface IndexedPage {
  path: string;
  title: string;
  description: string;
  body: string;
}

const FIELD_BOOSTS = { title: { boost: 10 }, description: { boost: 3 }, body: { boost: 1 } } as const;
// Bounds the work of one search: every query word is expanded to the indexed words it starts, so a
// term of short words costs the most, and more with every word (bench/README.md, "Figures behind the
// code").
const MAX_QUERY_WORDS = 8;

/** The search index with what search needs of each page: plain data, so a build can store it. */
export interface SearchSnapshot {
  /** elasticlunr's own serialised index. */
  readonly index: object;
  readonly pages: readonly StoredPage[];
}

/** Indexes the published pages for full-text search; the costly part of search, done once. */
export function indexDocsSearch(pages: readonly SearchablePage[]): SearchSnapshot {
  const index = elasticlunr<IndexedPage>(function () {
    this.setRef('path');
    this.addField('title');
    this.addField('description');
    this.addField('body');
    this.saveDocument(false);
  });
  // Text reaches elasticlunr already split into letters, marks and digits (see `normalize`), so its
  // ASCII-only trimmer has nothing left to do except erase words in non-Latin scripts: drop it.
  index.pipeline.reset();
  index.pipeline.add(elasticlunr.stopWordFilter, elasticlunr.stemmer);
  for (const page of pages) {
    index.addDoc({
      path: page.path,
      title: normalize(page.title),
      description: normalize(page.description),
      body: normalize(page.text),
    });
  }
  return { index: index.toJSON(), pages: pages.map(({ text: _indexed, ...page }) => page) };
}

/** Builds the full-text index over published pages once and returns the search function. */
export function createDocsSearch(pages: readonly SearchablePage[]): (term: string) => SearchResult[] {
  return openDocsSearch(indexDocsSearch(pages));
}

/**
 * The search function over an index made by `indexDocsSearch`.
 * Ranking: a page whose title is the query comes first, then pages matching in the title, then the
 * rest, each group by elasticlunr score (title boosted over description over body); ties by path.
 * Words match case-insensitively by stem ("calculations" finds "calculated"), and a query word
 * also matches longer indexed stems it starts (`calc` finds "calculation").
 */
export function openDocsSearch(snapshot: SearchSnapshot): (term: string) => SearchResult[] {
  const index = elasticlunr.Index.load<IndexedPage>(snapshot.index as elasticlunr.SerialisedIndexData<IndexedPage>);
  const { pages } = snapshot;
  // Maps, not objects, keyed by path or title: no input can reach a prototype property.
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const normalizedTitles = pages.map((page) => ({ path: page.path, title: normalize(page.title) }));

  return (term: string): SearchResult[] => {
    if (typeof term !== 'string') return [];
    const normalizedTerm = normalize(term);
    const words = queryWords(term);
    if (words.length === 0) return [];
    const query = words.join(' ');

    const scores = new Map<string, number>();
    for (const hit of index.search(query, { fields: FIELD_BOOSTS, bool: 'OR', expand: true })) scores.set(hit.ref, hit.score);
    const titleHits = new Set(index.search(query, { fields: { title: { boost: 1 } }, bool: 'OR', expand: true }).map((hit) => hit.ref));
    // Exact titles are found by comparison, not the index, so a title made of stop words still ranks.
    const exactTitles = new Set(normalizedTitles.filter((page) => page.title === normalizedTerm).map((page) => page.path));

    const group = (path: string): number => (exactTitles.has(path) ? 0 : titleHits.has(path) ? 1 : 2);
    const ranked = [...new Set([...exactTitles, ...scores.keys()])].sort(
      (a, b) => group(a) - group(b) || (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0),
    );

    const excerptTerms = termsForExcerpt(words);
    return ranked.slice(0, SEARCH_RESULT_LIMIT).flatMap((path) => {
      const page = byPath.get(path);
      if (page === undefined) return [];
      const excerpt = excerptAround(page.excerptText, excerptTerms) ?? shorten(page.description);
      return [{ description: page.description, excerpt, path: page.path, title: page.title }];
    });
  };
}

/**
 * The words of a search's excerpt that its term matched, as a results page highlights them: the
 * words the excerpt was cut around (every word starting with a meaningful query word or its stem).
 */
export function highlightsIn(excerpt: string, term: string): TextRange[] {
  return matchingWords(excerpt, termsForExcerpt(queryWords(term)));
}

// The distinct words of a term, as many as one search looks up.
function queryWords(term: string): string[] {
  return [...new Set(normalize(term).split(' ').filter((word) => word !== ''))].slice(0, MAX_QUERY_WORDS);
}

/**
 * Text as the index sees it: compatibility-normalised, lower-cased, every run of characters other
 * than letters, marks and digits turned into one space. Punctuation-only input becomes empty, and
 * `__proto__` becomes the harmless word `proto`.
 */
function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
}

// The words an excerpt looks for: the query's words that are not stop words, and their stems, since
// the index matched on stems ("calculations" should quote a passage with "calculated").
function termsForExcerpt(words: readonly string[]): string[] {
  const meaningful = words.filter((word) => (elasticlunr.stopWordFilter(word) as string | undefined) !== undefined);
  return [...new Set(meaningful.flatMap((word) => [word, elasticlunr.stemmer(word)]))];
}
