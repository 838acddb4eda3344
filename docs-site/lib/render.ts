import type { Definition, Link, PhrasingContent, Root } from 'mdast';
import { visit, SKIP } from 'unist-util-visit';
import { definitionDestination, inlineLinkDestination, type Span } from './destinations.ts';

/** MDX node types that never reach readers: they only mean something to an MDX runtime. */
export const MDX_NODE_TYPES: ReadonlySet<string> = new Set([
  'mdxjsEsm',
  'mdxJsxFlowElement',
  'mdxJsxTextElement',
  'mdxFlowExpression',
  'mdxTextExpression',
]);
const MDX_FLOW_TYPES: ReadonlySet<string> = new Set(['mdxjsEsm', 'mdxJsxFlowElement', 'mdxFlowExpression']);

/** How the renderer should treat one link destination. */
export type LinkDecision =
  | { readonly action: 'keep' }
  | { readonly action: 'rewrite'; readonly url: string }
  /** The link is broken; the renderer reports it with its line and leaves the text as written. */
  | { readonly action: 'broken'; readonly reason: string };

/** A link that could not be resolved, with the line it is on. */
export interface BrokenLink {
  readonly url: string;
  readonly line: number | undefined;
  readonly reason: string;
}

/** The served Markdown of a page, and the links that stopped it from being servable. */
export interface RenderedMarkdown {
  readonly markdown: string;
  readonly brokenLinks: BrokenLink[];
}

interface Edit extends Span {
  readonly text: string;
}

/**
 * Produces the Markdown served for a page: the source without its frontmatter and without MDX
 * (JSX elements with their children, expressions, `import`/`export`), with links between pages
 * rewritten to docs paths. It edits the source text at the tree's positions instead of
 * re-serialising the tree, so everything not edited (code blocks and code spans above all) is
 * exactly what the author wrote.
 *
 * @param source the page's full text, frontmatter included, that `tree` was parsed from
 * @param decide says what to do with each link destination
 */
export function renderMarkdown(source: string, tree: Root, decide: (url: string) => LinkDecision): RenderedMarkdown {
  const edits: Edit[] = [];
  const brokenLinks: BrokenLink[] = [];
  const imageOnlyDefinitions = imageOnlyIdentifiers(tree);

  const handleDestination = (node: Link | Definition, span: Span | undefined): void => {
    const decision = decide(node.url);
    if (decision.action === 'keep') return;
    const line = node.position?.start.line;
    if (decision.action === 'broken') {
      brokenLinks.push({ url: node.url, line, reason: decision.reason });
    } else if (span === undefined) {
      brokenLinks.push({ url: node.url, line, reason: 'could not be located in the source to rewrite it' });
    } else {
      edits.push({ ...span, text: asDestination(decision.url) });
    }
  };

  visit(tree, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return undefined;
    if (node.type === 'yaml') {
      edits.push({ start, end, text: '' });
      return SKIP;
    }
    // `<Badge>new</Badge>` alone on a line is a paragraph holding only MDX: remove the paragraph,
    // or an empty line would be left where it was.
    if (node.type === 'paragraph' && node.children.every(isMdxOrBlank)) {
      edits.push(wholeLinesRemoval(source, start, end));
      return SKIP;
    }
    if (MDX_NODE_TYPES.has(node.type)) {
      edits.push(MDX_FLOW_TYPES.has(node.type) ? wholeLinesRemoval(source, start, end) : inlineRemoval(source, start, end));
      return SKIP;
    }
    if (node.type === 'link') handleDestination(node, inlineLinkDestination(source, node));
    // Definitions used only by images point at assets, not pages; they are left alone like images.
    if (node.type === 'definition' && !imageOnlyDefinitions.has(node.identifier)) {
      handleDestination(node, definitionDestination(source, node));
    }
    return undefined;
  });

  return { markdown: tidyEnds(applyEdits(source, edits)), brokenLinks };
}

function isMdxOrBlank(node: PhrasingContent): boolean {
  return MDX_NODE_TYPES.has(node.type) || (node.type === 'text' && node.value.trim() === '');
}

// Identifiers of definitions that only images refer to.
function imageOnlyIdentifiers(tree: Root): Set<string> {
  const linked = new Set<string>();
  const imaged = new Set<string>();
  visit(tree, (node) => {
    if (node.type === 'linkReference') linked.add(node.identifier);
    if (node.type === 'imageReference') imaged.add(node.identifier);
  });
  return new Set([...imaged].filter((identifier) => !linked.has(identifier)));
}

// Docs paths never need brackets; an anchor or query carried over from the original link might.
function asDestination(url: string): string {
  return /[\s<>()]/.test(url) ? `<${url.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : url;
}

// A block-level MDX node usually sits on lines of its own; removing just its span would leave an
// empty line and a doubled blank line behind, so take the whole lines and one surrounding blank.
function wholeLinesRemoval(source: string, start: number, end: number): Edit {
  let lineStart = start;
  while (lineStart > 0 && (source[lineStart - 1] === ' ' || source[lineStart - 1] === '\t')) lineStart -= 1;
  let lineEnd = end;
  while (lineEnd < source.length && /[ \t\r]/.test(source[lineEnd] ?? '')) lineEnd += 1;
  const ownsLines = (lineStart === 0 || source[lineStart - 1] === '\n') && (lineEnd === source.length || source[lineEnd] === '\n');
  if (!ownsLines) return { start, end, text: '' };

  let removeEnd = Math.min(lineEnd + 1, source.length);
  const blankAfter = /^[ \t\r]*(?:\n|$)/.exec(source.slice(removeEnd));
  const blankBefore = lineStart === 0 || /\n[ \t\r]*\n$/.test(source.slice(0, lineStart));
  if (blankBefore && blankAfter !== null && removeEnd < source.length) removeEnd += blankAfter[0].length;
  return { start: lineStart, end: removeEnd, text: '' };
}

// Removing `<Badge>beta</Badge>` from "Version <Badge>beta</Badge> here" would leave two spaces (or
// a space before punctuation); take the space before it too.
function inlineRemoval(source: string, start: number, end: number): Edit {
  const spaceBefore = source[start - 1] === ' ' || source[start - 1] === '\t';
  const closesUp = end === source.length || /[ \t\r\n.,;:!?)]/.test(source[end] ?? '');
  return { start: spaceBefore && closesUp ? start - 1 : start, end, text: '' };
}

function applyEdits(source: string, edits: Edit[]): string {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  let output = '';
  let cursor = 0;
  for (const edit of ordered) {
    // Edits come from disjoint tree nodes (children of removed nodes are skipped), so an overlap
    // is a bug here, not an authoring problem.
    if (edit.start < cursor) throw new Error('docs-site render: overlapping source edits');
    output += source.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return output + source.slice(cursor);
}

// The frontmatter and removed blocks leave blank lines at the top; a page ends with one newline.
function tidyEnds(markdown: string): string {
  const body = markdown.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  return body === '' ? '' : `${body}\n`;
}
