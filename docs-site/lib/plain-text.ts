import type { Nodes, Root } from 'mdast';
import { MDX_NODE_TYPES } from './render.ts';

// Nodes whose text readers never see in the served page.
const HIDDEN_TYPES: ReadonlySet<string> = new Set([...MDX_NODE_TYPES, 'yaml', 'html', 'definition']);
// Containers of blocks: their children are separated by a line break, whereas phrasing children
// (`**trace**s`) join without one so words are not split.
const BLOCK_CONTAINERS: ReadonlySet<string> = new Set(['root', 'blockquote', 'list', 'listItem', 'table', 'tableRow', 'footnoteDefinition']);

/**
 * The words a reader sees in a page (what search indexes and excerpts quote): text, code and image
 * descriptions, without frontmatter, MDX, raw HTML or link targets, whitespace collapsed.
 */
export function plainTextOf(tree: Root): string {
  return textOf(tree).replace(/\s+/g, ' ').trim();
}

function textOf(node: Nodes): string {
  if (HIDDEN_TYPES.has(node.type)) return '';
  if (node.type === 'break') return '\n';
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('value' in node && typeof node.value === 'string') return node.value;
  if (!('children' in node)) return '';
  const separator = BLOCK_CONTAINERS.has(node.type) ? '\n' : '';
  return (node.children as Nodes[]).map(textOf).join(separator);
}
