import { createHash } from 'node:crypto';

/**
 * The HTML edition's only stylesheet: readable text, a navigation column, tables and code. Tables
 * and code blocks scroll inside themselves, so the page never scrolls sideways. On a narrow screen
 * the navigation is hidden until the header's Contents link targets it; then it opens at the top.
 */
const STYLESHEET = `:root { color-scheme: light dark; --muted: #5b6470; --line: #d0d7de; --code: #f3f4f6; --accent: #0b5fad; --mark: #fff3a3; }
@media (prefers-color-scheme: dark) { :root { --muted: #9aa4b0; --line: #3a414a; --code: #1f2429; --accent: #6cb4ff; --mark: #5c4d00; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
a { color: var(--accent); }
img { max-width: 100%; height: auto; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
:not(pre) > code { background: var(--code); padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: var(--code); padding: 0.8em 1em; overflow-x: auto; border-radius: 4px; }
table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; margin: 1em 0; }
th, td { border: 1px solid var(--line); padding: 0.35em 0.6em; text-align: left; vertical-align: top; }
mark { background: var(--mark); color: inherit; padding: 0 0.1em; }
.site-header { display: flex; flex-wrap: wrap; gap: 0.6em 1em; align-items: center; padding: 0.7em 1.5em; border-bottom: 1px solid var(--line); }
.site-title { font-weight: 600; font-size: 1.1em; text-decoration: none; }
.search { display: flex; gap: 0.4em; flex: 1; min-width: 0; max-width: 32em; }
.search label { flex: 1; display: flex; min-width: 0; }
.search .label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.search input { flex: 1; min-width: 0; font: inherit; padding: 0.25em 0.5em; }
.search button { font: inherit; }
.nav-toggle { display: none; }
.layout { display: grid; grid-template-columns: 17em minmax(0, 1fr); gap: 2em; padding: 0 1.5em; }
.site-navigation { font-size: 0.92em; padding: 1em 0; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; }
.site-navigation ul { list-style: none; margin: 0; padding: 0; }
.site-navigation > ul > li { margin-bottom: 0.8em; }
.site-navigation > ul > li > a { font-weight: 600; }
.site-navigation ul ul { padding-left: 0.9em; }
.site-navigation a { text-decoration: none; display: block; padding: 0.1em 0; }
.site-navigation a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
main { min-width: 0; max-width: 50em; padding-bottom: 3em; }
main :is(p, li, dt, dd, h1, h2, h3, h4, h5, h6, blockquote) { overflow-wrap: break-word; }
.page-source, .search-results p { color: var(--muted); font-size: 0.9em; }
.problem { border-left: 4px solid #c62828; padding-left: 0.8em; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
@media (max-width: 48em) {
  .site-header { padding: 0.6em 1em; }
  .site-title { flex: 1; }
  .nav-toggle { display: inline-block; }
  .search { order: 3; flex-basis: 100%; max-width: none; }
  .layout { grid-template-columns: minmax(0, 1fr); gap: 0; padding: 0 1em; }
  .site-navigation { display: none; position: static; max-height: none; border-bottom: 1px solid var(--line); }
  .site-navigation:target { display: block; }
}
`;

/** The stylesheet and its file name, which carries a hash of its text so it can be cached forever. */
export function docsStylesheet(): { readonly fileName: string; readonly css: string } {
  const hash = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);
  return { fileName: `docs.${hash}.css`, css: STYLESHEET };
}
