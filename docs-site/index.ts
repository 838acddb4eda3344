/**
 * The documentation site: reads Markdown content and the navigation file once at boot, checks them
 * (frontmatter, links between pages, navigation), and serves pages, Markdown, navigation and search.
 * The HTTP layer uses only this entry.
 */
export { buildDocsSite, compileDocsSite, compileStoredDocsSite, type DocsSiteOptions } from './lib/site.ts';
export { DOCS_SCHEMAS, SEARCH_RESULT_LIMIT, type DocsPage, type DocsShape, type NavigationItem, type NavigationPageItem, type SearchResult } from './lib/contract.ts';
export { docsInputsDigest, openDocsSite, type DocsSite, type DocsSiteSnapshot } from './lib/snapshot.ts';
export type { DocsHtml } from './lib/html-edition.ts';
export { DOCS_HTML_ASSETS, DOCS_HTML_BASE, DOCS_HTML_SEARCH } from './lib/html-paths.ts';
export type { GeneratedPage } from './lib/content.ts';
export { PAGE_STATUSES, PAGE_TYPES, PRIMARY_READERS, type PageStatus, type PageType, type PrimaryReader } from './lib/frontmatter.ts';
export { pagesMissingFromNavigation } from './lib/navigation.ts';
export { EXCERPT_MAX_LENGTH } from './lib/excerpt.ts';
export { DOCS_PATH_PATTERN_SOURCE } from './lib/paths.ts';
export { DocsBuildError, formatProblem, type DocsProblem } from './lib/problems.ts';
export { referencePages, referencePath } from './reference/generate.ts';
