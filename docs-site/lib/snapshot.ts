import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fromGeneratedPages, readContentFolder, type GeneratedPage } from './content.ts';
import { openHtmlEdition, type DocsHtml, type HtmlSnapshot } from './html-edition.ts';
import type { DocsPage, NavigationItem, SearchResult } from './contract.ts';
import { openDocsSearch, type SearchSnapshot } from './search.ts';

/**
 * Everything the served site is made of, as plain data: what `compileDocsSite` produces from the
 * Markdown, and what a build stores so that a boot can skip parsing, rendering and indexing.
 */
export interface DocsSiteSnapshot {
  readonly navigation: readonly NavigationItem[];
  readonly pages: readonly DocsPage[];
  readonly search: SearchSnapshot;
  readonly html: HtmlSnapshot;
}

/** The built documentation, ready to serve; everything is computed once, at build. */
export interface DocsSite {
  /** The navigation sections, in the navigation file's order. */
  navigation(): readonly NavigationItem[];
  /** A published page by docs path, or undefined. */
  page(path: string): DocsPage | undefined;
  /** A published page's served Markdown (the same text as `page(path).markdown`), or undefined. */
  markdown(path: string): string | undefined;
  /** Ranked full-text search over published pages: at most 20 results; never throws. */
  search(term: string): SearchResult[];
  /** Docs paths of all published pages, sorted. */
  paths(): readonly string[];
  /** The same pages as HTML documents for a browser, served under `DOCS_HTML_BASE`. */
  readonly html: DocsHtml;
}

/** Serves a compiled site. Loads no Markdown parser, so a boot from a stored snapshot stays light. */
export function openDocsSite(snapshot: DocsSiteSnapshot): DocsSite {
  const navigation = deepFreeze(snapshot.navigation);
  const served = new Map(snapshot.pages.map((page) => [page.path, deepFreeze(page)]));
  const paths = Object.freeze([...served.keys()].sort());
  const search = openDocsSearch(snapshot.search);
  return {
    navigation: () => navigation,
    page: (path) => served.get(path),
    markdown: (path) => served.get(path)?.markdown,
    search,
    paths: () => paths,
    html: openHtmlEdition(snapshot.html, served, navigation, search),
  };
}

/**
 * A digest of everything a site is compiled from: every content file's path and text, the
 * navigation file, and the generated pages. A stored snapshot whose digest differs is stale.
 */
export function docsInputsDigest(options: {
  contentDir: string;
  navigationFile: string;
  projectRoot: string;
  generatedPages: readonly GeneratedPage[];
  apiReferenceUrl: string;
}): string {
  const hash = createHash('sha256');
  const add = (text: string) => hash.update(`${text.length}:${text}`);
  const sources = existsSync(options.contentDir) ? readContentFolder(options.contentDir, options.projectRoot) : [];
  for (const page of [...sources, ...fromGeneratedPages(options.generatedPages)]) {
    add(page.source);
    add(page.path);
    add(page.text);
  }
  add(existsSync(options.navigationFile) ? readFileSync(options.navigationFile, 'utf8') : '');
  add(options.apiReferenceUrl);
  return hash.digest('hex');
}

// Pages and navigation are shared by every request; freezing them means no handler can change what
// the next reader gets.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
