/**
 * The documentation site served from a compiled snapshot: the light entry that a boot uses, with no
 * Markdown parser behind it. `index.ts` is the full entry, which compiles sites from Markdown.
 */
export { docsInputsDigest, openStoredDocsSite, storeDocsSite, type StoredDocsSite, type StoredDocsSnapshot } from './lib/snapshot.ts';
export { DOCS_SCHEMAS } from './lib/contract.ts';
export { referencePages } from './reference/generate.ts';
export { DOCS_HTML_ASSETS, DOCS_HTML_BASE, DOCS_HTML_SEARCH } from './lib/html-paths.ts';
