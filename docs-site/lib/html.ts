import type { Element } from 'hast';
import { toHtml } from 'hast-util-to-html';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import { visit } from 'unist-util-visit';
import { htmlUrlOf } from './html-paths.ts';

/*
 * Raw HTML in a page never reaches the browser: remark-rehype drops it, and the sanitizer removes
 * anything else outside GitHub's safe subset. Its id prefix (`user-content-`) is turned off: it
 * guards a page's scripts against ids chosen by untrusted authors, these pages run no script, and
 * the prefix would break the heading anchors that links between pages point to.
 */
const SANITIZE_SCHEMA = { ...defaultSchema, clobberPrefix: '' };
const markdownToHast = remark().use(remarkGfm).use(remarkRehype).use(rehypeSanitize, SANITIZE_SCHEMA).use(rehypeSlug).freeze();

/**
 * Renders a page's served Markdown (links between pages already rewritten to docs paths) to
 * sanitized HTML, with ids on headings, and links to published pages pointing at their HTML
 * edition. Other links (the service's `/api` routes, other sites, `#anchors`) stay as written.
 *
 * @param markdown the served Markdown of the page
 * @param publishedPaths every published docs path, to tell a page link from a service route
 */
export function renderPageHtml(markdown: string, publishedPaths: ReadonlySet<string>): string {
  const tree = markdownToHast.runSync(markdownToHast.parse(markdown));
  visit(tree, 'element', (element: Element) => {
    const href = element.tagName === 'a' ? element.properties['href'] : undefined;
    if (typeof href !== 'string' || !href.startsWith('/') || href.startsWith('//')) return;
    const split = href.search(/[?#]/);
    const path = split === -1 ? href : href.slice(0, split);
    if (publishedPaths.has(path)) element.properties['href'] = htmlUrlOf(href);
  });
  return toHtml(tree);
}
