import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
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

/**
 * A compiled site as a build stores it. The search index and the HTML edition, most of it, are
 * stored as deflated JSON (base64) and stay compressed until first used: a boot does not parse
 * them, and a service that is never asked for them holds their compressed bytes instead of their
 * JSON text, resident for as long as the process runs (bench/README.md, "Figures behind the code").
 */
export interface StoredDocsSite {
  readonly navigation: readonly NavigationItem[];
  readonly pages: readonly DocsPage[];
  readonly searchDeflated: string;
  readonly htmlDeflated: string;
}

/** A compiled site as a build stores it, with the digest of what it was compiled from. */
export interface StoredDocsSnapshot {
  readonly inputs: string;
  readonly site: StoredDocsSite;
}

/** A compiled site in the form a build stores. */
export function storeDocsSite(snapshot: DocsSiteSnapshot): StoredDocsSite {
  return { navigation: snapshot.navigation, pages: snapshot.pages, searchDeflated: deflated(snapshot.search), htmlDeflated: deflated(snapshot.html) };
}

/** JSON text, deflated and in base64, so that it travels inside the snapshot's own JSON. */
function deflated(value: unknown): string {
  return deflateRawSync(JSON.stringify(value)).toString('base64');
}

/** A reader of deflated JSON that holds only the compressed bytes until it is called. */
function inflater<T>(base64: string): () => T {
  const bytes = Buffer.from(base64, 'base64');
  return () => JSON.parse(inflateRawSync(bytes).toString()) as T;
}

/** Serves a compiled site. Loads no Markdown parser, so a boot from a stored snapshot stays light. */
export function openDocsSite(snapshot: DocsSiteSnapshot): DocsSite {
  return openSite(snapshot.navigation, snapshot.pages, () => snapshot.search, () => snapshot.html);
}

/** Serves a stored site, inflating and parsing its search index and HTML edition when first asked for. */
export function openStoredDocsSite(stored: StoredDocsSite): DocsSite {
  return openSite(stored.navigation, stored.pages, inflater<SearchSnapshot>(stored.searchDeflated), inflater<HtmlSnapshot>(stored.htmlDeflated));
}

function openSite(navigationItems: readonly NavigationItem[], pages: readonly DocsPage[], readSearch: () => SearchSnapshot, readHtml: () => HtmlSnapshot): DocsSite {
  const navigation = deepFreeze(navigationItems);
  const served = new Map(pages.map((page) => [page.path, deepFreeze(page)]));
  const paths = Object.freeze([...served.keys()].sort());
  let searchIndex: ((term: string) => SearchResult[]) | undefined;
  const search = (term: string) => (searchIndex ??= openDocsSearch(readSearch()))(term);
  let html: DocsHtml | undefined;
  return {
    navigation: () => navigation,
    page: (path) => served.get(path),
    markdown: (path) => served.get(path)?.markdown,
    search,
    paths: () => paths,
    get html() {
      return (html ??= openHtmlEdition(readHtml(), served, navigation, search));
    },
  };
}

/**
 * The form of what a compile produces. A snapshot stored by a build is read by the code of a later
 * checkout only when this matches: change it whenever compiling the same pages gives other data
 * (a field added to the search index's pages, a change to how excerpts are made).
 */
const COMPILED_FORM = 'search pages carry excerptText (prose without code blocks, tables by cell)';

/**
 * A digest of everything a site is compiled from: every content file's path and text, the
 * navigation file, and the generated pages, and the form the compiler gives them. A stored
 * snapshot whose digest differs is stale.
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
  add(COMPILED_FORM);
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
