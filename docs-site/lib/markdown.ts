import type { Root } from 'mdast';
import { remark } from 'remark';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMdx from 'remark-mdx';
import { visit, EXIT } from 'unist-util-visit';
import type { DocsProblem } from './problems.ts';

/*
 * Why two parsers. Pages are meant to be plain Markdown, but the served text must never carry
 * executable MDX, and only an MDX parser can say exactly where JSX, expressions and ESM are so they
 * can be removed. MDX is not a superset of Markdown, though: it turns indented code into paragraphs,
 * rejects HTML comments and `<https://…>` autolinks, and fails on a stray `{`. So every page is
 * parsed as CommonMark first (which never fails), and only a page whose CommonMark tree shows
 * something MDX could claim (raw HTML, `{` or `}`, `<` opening a tag, a line starting with
 * `import`/`export`) is parsed again as MDX. That check is deliberately broad: a false alarm costs an
 * MDX parse (and, at worst, a build error telling the author to escape a character), while a miss
 * would serve JSX. Code spans and code blocks are code in both grammars, so they never trigger it.
 */

const commonMark = remark().use(remarkFrontmatter, ['yaml']).freeze();
const mdx = remark().use(remarkFrontmatter, ['yaml']).use(remarkMdx).freeze();

/** Parses a page as CommonMark with a YAML frontmatter block; never fails. */
export function parseCommonMark(text: string): Root {
  return commonMark.parse(text);
}

// A `<` that MDX would read as the start of a JSX tag, closing tag or fragment.
const JSX_TAG_START = /<[\p{ID_Start}$_/>]/u;
const EXPRESSION_BRACE = /[{}]/;
const ESM_LINE = /(?:^|\n)[ \t]*(?:import|export)\b/;

/** Whether a CommonMark tree contains anything the MDX grammar would treat as MDX. */
export function mayContainMdx(tree: Root): boolean {
  let found = false;
  visit(tree, (node) => {
    const suspicious =
      node.type === 'html' ||
      (node.type === 'text' &&
        (JSX_TAG_START.test(node.value) || EXPRESSION_BRACE.test(node.value) || ESM_LINE.test(node.value)));
    if (!suspicious) return undefined;
    found = true;
    return EXIT;
  });
  return found;
}

/** Outcome of an MDX parse: the tree, or a problem citing where the MDX grammar gave up. */
export type MdxParse = { readonly tree: Root } | { readonly problem: DocsProblem };

/** Parses a page as MDX (with frontmatter), turning a syntax error into a located problem. */
export function parseMdx(text: string, file: string): MdxParse {
  try {
    return { tree: mdx.parse(text) };
  } catch (error) {
    const { line, reason } = describeParseError(error);
    const message =
      `page is parsed as MDX because it contains JSX, HTML, braces or import/export, and MDX cannot read it: ${reason}. ` +
      'Write plain Markdown: escape a literal `{`, `}` or `<` with a backslash, or put it in a code span.';
    return { problem: line === undefined ? { file, message } : { file, line, message } };
  }
}

function describeParseError(error: unknown): { line?: number; reason: string } {
  if (typeof error !== 'object' || error === null) return { reason: String(error) };
  const { line, reason, message } = error as { line?: unknown; reason?: unknown; message?: unknown };
  const text = typeof reason === 'string' ? reason : typeof message === 'string' ? message : String(error);
  return typeof line === 'number' ? { line, reason: text } : { reason: text };
}
