import type { Definition, Link } from 'mdast';

/*
 * The syntax tree gives a link's decoded URL but not where that URL sits in the source. Pages are
 * rewritten by editing the source text in place (so everything else, code above all, stays byte for
 * byte), which needs the exact span of each destination. These scanners find it by reading the
 * CommonMark link syntax from positions the parser already established.
 */

/** A half-open span `[start, end)` of source offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** The span of an inline link's destination (`[text](dest "title")`), or undefined for autolinks. */
export function inlineLinkDestination(source: string, link: Link): Span | undefined {
  const start = link.position?.start.offset;
  const end = link.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  // The label's content ends at the last child; with no children it is right after the `[`.
  const lastChild = link.children.at(-1);
  const labelEnd = lastChild?.position?.end.offset ?? start + 1;
  const opener = source.indexOf('](', labelEnd);
  if (opener === -1 || opener >= end) return undefined;
  return scanDestination(source, skipWhitespace(source, opener + 2, end), end);
}

/** The span of a link reference definition's destination (`[label]: dest "title"`). */
export function definitionDestination(source: string, definition: Definition): Span | undefined {
  const start = definition.position?.start.offset;
  const end = definition.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  let index = source.indexOf('[', start);
  if (index === -1 || index >= end) return undefined;
  for (index += 1; index < end && source[index] !== ']'; index += 1) {
    if (source[index] === '\\') index += 1;
  }
  if (source[index + 1] !== ':') return undefined;
  return scanDestination(source, skipWhitespace(source, index + 2, end), end);
}

function skipWhitespace(source: string, from: number, limit: number): number {
  let index = from;
  while (index < limit && /\s/.test(source[index] ?? '')) index += 1;
  return index;
}

// A destination is either `<…>` or a run without spaces or control characters in which
// parentheses balance; a backslash escapes the next character in both forms.
function scanDestination(source: string, from: number, limit: number): Span | undefined {
  if (from >= limit) return undefined;
  if (source[from] === '<') {
    for (let index = from + 1; index < limit; index += 1) {
      const char = source[index];
      if (char === '\\') index += 1;
      else if (char === '>') return { start: from, end: index + 1 };
      else if (char === '\n' || char === '<') return undefined;
    }
    return undefined;
  }
  let depth = 0;
  let index = from;
  for (; index < limit; index += 1) {
    const char = source[index] ?? '';
    if (char === '\\') {
      index += 1;
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      if (depth === 0) break;
      depth -= 1;
    } else if (/[\s\p{Cc}]/u.test(char)) {
      break;
    }
  }
  return index > from ? { start: from, end: Math.min(index, limit) } : undefined;
}
