import { DOCS_HTML_SEARCH, htmlUrlOf } from './html-paths.ts';
import type { NavigationItem, NavigationPageItem, SearchResult } from './contract.ts';

/*
 * The frame around every HTML page, written as templates over escaped text rather than built with
 * an HTML toolchain: a boot from a stored snapshot serves pages with this module alone. Every value
 * that is not already HTML (titles, descriptions, terms, paths) goes through `escapeHtml`.
 */

/** What every HTML page shares: the site's name, its navigation and where its assets are. */
export interface SiteFrame {
  /** The site's name, shown in the header and in every title: the first section's title. */
  readonly siteTitle: string;
  readonly navigation: readonly NavigationItem[];
  readonly stylesheetUrl: string;
  /** The interactive API reference, linked from the header when given. */
  readonly apiReferenceUrl?: string;
}

/** One page's part of a document. */
export interface PageView {
  readonly title: string;
  readonly description?: string;
  /** The docs path shown, marked as current in the navigation. */
  readonly currentPath?: string;
  /** Pre-filled in the search box on the results page. */
  readonly searchTerm?: string;
  /** The page's content, already HTML (rendered and sanitized at build, or made here from escaped text). */
  readonly mainHtml: string;
  /** Where the page's Markdown comes from, shown at its foot. */
  readonly source?: string;
}

/** Text made safe to place in HTML content or in a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A complete HTML document: header with the search box, the navigation, the page. It loads only the
 * site's own stylesheet and no script, so it works offline and under a strict content security policy.
 */
export function htmlDocument(frame: SiteFrame, view: PageView): string {
  const title = view.title === frame.siteTitle ? view.title : `${view.title} · ${frame.siteTitle}`;
  const description = view.description === undefined ? '' : `<meta name="description" content="${escapeHtml(view.description)}">\n`;
  const apiReference = frame.apiReferenceUrl === undefined ? '' : `<a class="api-reference" href="${escapeHtml(frame.apiReferenceUrl)}">API reference</a>`;
  const source = view.source === undefined ? '' : `\n<p class="page-source">Source: <code>${escapeHtml(view.source)}</code></p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${description}<link rel="stylesheet" href="${escapeHtml(frame.stylesheetUrl)}">
</head>
<body>
<header class="site-header">
<a class="site-title" href="${escapeHtml(htmlUrlOf(frame.navigation[0]?.path ?? ''))}">${escapeHtml(frame.siteTitle)}</a>
<a class="nav-toggle" href="#${NAVIGATION_ID}">Contents</a>
<form class="search" role="search" action="${DOCS_HTML_SEARCH}" method="get"><label><span class="label">Search the docs</span><input type="search" name="term" value="${escapeHtml(view.searchTerm ?? '')}" required></label><button type="submit">Search</button></form>
${apiReference}
</header>
<div class="layout">
${navigationHtml(frame.navigation, view.currentPath)}
<main>
${view.mainHtml}${source}
</main>
</div>
</body>
</html>
`;
}

// The navigation's id: on a narrow screen the header's Contents link opens it by targeting it.
const NAVIGATION_ID = 'site-navigation';

function navigationHtml(sections: readonly NavigationItem[], currentPath: string | undefined): string {
  const link = (page: NavigationPageItem): string =>
    `<a href="${escapeHtml(htmlUrlOf(page.path))}"${page.path === currentPath ? ' aria-current="page"' : ''}>${escapeHtml(page.title)}</a>`;
  const items = sections.map((section) => {
    const pages = section.pages.length === 0 ? '' : `<ul>${section.pages.map((page) => `<li>${link(page)}</li>`).join('')}</ul>`;
    return `<li>${link(section)}${pages}</li>`;
  });
  return `<nav class="site-navigation" id="${NAVIGATION_ID}" aria-label="Documentation"><ul>\n${items.join('\n')}\n</ul></nav>`;
}

/** Where a search's term matched in a piece of text, for the results page to highlight. */
export type Highlighter = (text: string, term: string) => readonly { readonly start: number; readonly end: number }[];

/**
 * The main part of the search page: the outcome of a search, or why there was none. The words of
 * each excerpt that the term matched are marked; the text around and inside them is escaped.
 */
export function searchResultsHtml(term: string, results: readonly SearchResult[] | undefined, problem: string | undefined, highlight: Highlighter): string {
  const heading = '<h1>Search</h1>\n';
  if (problem !== undefined) return `${heading}<p class="problem">${escapeHtml(problem)}</p>`;
  if (term === '' || results === undefined) return `${heading}<p>Type a word or phrase in the search box.</p>`;
  if (results.length === 0) return `${heading}<p>No page matches that search.</p>`;
  const count = results.length === 1 ? '1 page matches' : `${results.length} pages match`;
  const items = results.map((result) => `<li><a href="${escapeHtml(htmlUrlOf(result.path))}">${escapeHtml(result.title)}</a><p>${markedHtml(result.excerpt, highlight(result.excerpt, term))}</p></li>`);
  return `${heading}<p>${count}</p>\n<ol class="search-results">\n${items.join('\n')}\n</ol>`;
}

// Text as HTML with the given non-overlapping ranges, in order, inside <mark>.
function markedHtml(text: string, ranges: readonly { readonly start: number; readonly end: number }[]): string {
  let html = '';
  let cursor = 0;
  for (const { start, end } of ranges) {
    html += `${escapeHtml(text.slice(cursor, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    cursor = end;
  }
  return html + escapeHtml(text.slice(cursor));
}

/** The main part of the page answering a docs address that leads to no page. */
export const NOT_FOUND_HTML = '<h1>Page not found</h1>\n<p>No documentation page lives at this address. Pick one from the navigation, or search for it.</p>';
