import { DOCS_HTML_ASSETS, htmlUrlOf } from './html-paths.ts';
import { htmlDocument, NOT_FOUND_HTML, searchResultsHtml, type SiteFrame } from './layout.ts';
import type { DocsPage, NavigationItem, SearchResult } from './contract.ts';
import { highlightsIn } from './search.ts';
import { docsStylesheet } from './stylesheet.ts';

/** The HTML edition as a compiled site stores it: each page's content, rendered and sanitized. */
export interface HtmlSnapshot {
  /** Page content (the part inside `<main>`) by docs path. */
  readonly pages: readonly { readonly path: string; readonly mainHtml: string }[];
  /** The interactive API reference, linked from every page when given. */
  readonly apiReferenceUrl?: string;
}

/** The documentation as HTML documents for a browser, served under `DOCS_HTML_BASE`. */
export interface DocsHtml {
  /** The address of the first page of the navigation: where a reader starts. */
  readonly homeUrl: string;
  /** A published page's HTML document, or undefined. */
  page(path: string): string | undefined;
  /** The document answering an address that leads to no page. */
  readonly notFound: string;
  /** The search page: results for `term` (none when empty), or `problem` when the term was refused. */
  search(term: string, problem?: string): string;
  /** The one stylesheet; its file name changes whenever its text does. */
  readonly stylesheet: { readonly fileName: string; readonly css: string };
}

/**
 * Serves the stored HTML edition. Page content was rendered from the Markdown when the site was
 * compiled; here it only goes into the frame (navigation, search box), with no Markdown or HTML
 * toolchain loaded. A page's document is put together when first asked for, then kept.
 */
export function openHtmlEdition(
  snapshot: HtmlSnapshot,
  pages: ReadonlyMap<string, DocsPage>,
  navigation: readonly NavigationItem[],
  search: (term: string) => SearchResult[],
): DocsHtml {
  const stylesheet = Object.freeze(docsStylesheet());
  const frame: SiteFrame = {
    siteTitle: navigation[0]?.title ?? 'Documentation',
    navigation,
    stylesheetUrl: `${DOCS_HTML_ASSETS}/${stylesheet.fileName}`,
    ...(snapshot.apiReferenceUrl === undefined ? {} : { apiReferenceUrl: snapshot.apiReferenceUrl }),
  };
  const content = new Map(snapshot.pages.map((page) => [page.path, page.mainHtml]));
  const documents = new Map<string, string>();
  return Object.freeze({
    homeUrl: htmlUrlOf(navigation[0]?.path ?? ''),
    page(path: string) {
      const known = documents.get(path);
      if (known !== undefined) return known;
      const page = pages.get(path);
      const mainHtml = content.get(path);
      if (page === undefined || mainHtml === undefined) return undefined;
      const document = htmlDocument(frame, { title: page.frontmatter.title, description: page.frontmatter.description, currentPath: path, mainHtml, source: page.source });
      documents.set(path, document);
      return document;
    },
    notFound: htmlDocument(frame, { title: 'Page not found', mainHtml: NOT_FOUND_HTML }),
    search: (term: string, problem?: string) =>
      htmlDocument(frame, {
        title: 'Search',
        searchTerm: problem === undefined ? term : '',
        mainHtml: searchResultsHtml(term, problem === undefined && term !== '' ? search(term) : undefined, problem, highlightsIn),
      }),
    stylesheet,
  });
}
