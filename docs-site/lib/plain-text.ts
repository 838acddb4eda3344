import type { Nodes, Root } from 'mdast';
import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import { MDX_NODE_TYPES } from './render.ts';

// Nodes whose text readers never see in the served page.
const HIDDEN_TYPES: ReadonlySet<string> = new Set([...MDX_NODE_TYPES, 'yaml', 'html', 'definition']);
// Containers of blocks: their children are separated by a line break, whereas phrasing children
// (`**trace**s`) join without one so words are not split.
const BLOCK_CONTAINERS: ReadonlySet<string> = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition']);
// Between the cells of a table row, and between rows that do not end a sentence themselves.
const CELL_SEPARATOR = ' · ';
const ROW_SEPARATOR = '; ';

// The served Markdown read as the HTML edition reads it (GitHub's tables among others).
const gfm = remark().use(remarkGfm).freeze();

/** The words of a page, for search: everything, to index; and prose, for excerpts to quote. */
export interface PageWords {
  /** Text, code and image descriptions, whitespace collapsed. */
  readonly all: string;
  /** The same without code blocks, which read badly out of context (inline code stays). */
  readonly prose: string;
}

/**
 * The words a reader sees in a page's served Markdown (no frontmatter, no MDX): without raw HTML or
 * link targets, table cells apart, whitespace collapsed.
 */
export function wordsOf(servedMarkdown: string): PageWords {
  const tree = gfm.parse(servedMarkdown);
  return { all: plainTextOf(tree, true), prose: plainTextOf(tree, false) };
}

/**
 * The words a reader sees in a page (what search indexes and excerpts quote): text, code (unless
 * left out) and image descriptions, without frontmatter, MDX, raw HTML or link targets,
 * whitespace collapsed.
 */
export function plainTextOf(tree: Root, withCode = true): string {
  return textOf(tree, withCode).replace(/\s+/g, ' ').trim();
}

function textOf(node: Nodes, withCode: boolean): string {
  if (HIDDEN_TYPES.has(node.type)) return '';
  if (node.type === 'code' && !withCode) return '';
  if (node.type === 'break') return '\n';
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('value' in node && typeof node.value === 'string') return node.value;
  if (!('children' in node)) return '';
  const children = (node.children as Nodes[]).map((child) => textOf(child, withCode));
  if (node.type === 'tableRow') return children.map((cell) => cell.trim()).join(CELL_SEPARATOR);
  if (node.type === 'table') return `\n${children.map((row, index) => (index === children.length - 1 || /[.;:!?]$/.test(row) ? row : row + ROW_SEPARATOR)).join('\n')}\n`;
  return children.join(BLOCK_CONTAINERS.has(node.type) ? '\n' : '');
}
