/** Where the HTML edition of the docs is served: a docs path `/concepts/traces` is at `/docs/concepts/traces`. */
export const DOCS_HTML_BASE = '/docs';
/** The search results page; `_` cannot start a docs path segment, so no page can claim it. */
export const DOCS_HTML_SEARCH = `${DOCS_HTML_BASE}/_search`;
/** The folder of the HTML edition's own assets (its stylesheet); out of docs path space like search. */
export const DOCS_HTML_ASSETS = `${DOCS_HTML_BASE}/_assets`;

/** The browser address of a docs path (with any `?query` or `#anchor` it carries). */
export function htmlUrlOf(docsUrl: string): string {
  return `${DOCS_HTML_BASE}${docsUrl}`;
}
