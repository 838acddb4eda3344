/** The contract's maximum length of a search excerpt, in UTF-16 code units (so also in characters). */
export const EXCERPT_MAX_LENGTH = 240;

// How much text before the match the excerpt tries to keep, so the match reads in context.
const LEAD_IN = 60;
const ELLIPSIS = '…';

/**
 * The passage of `text` around the first word starting with one of `terms` (case-insensitive), cut
 * to at most 240 characters on word boundaries where possible, with "…" where text was cut off.
 * Returns undefined when no term occurs, so the caller can fall back to something else.
 *
 * @param text plain text with whitespace already collapsed
 * @param terms query words and their stems; a word matches when it starts with one of them
 */
export function excerptAround(text: string, terms: readonly string[]): string | undefined {
  const match = firstMatch(text, terms);
  return match === undefined ? undefined : cutAround(text, match.start, match.end);
}

/** `text` shortened to at most 240 characters on a word boundary, for fallbacks like descriptions. */
export function shorten(text: string): string {
  return cutAround(text, 0, 0);
}

/** A span of text, from `start` (inclusive) to `end` (exclusive), in UTF-16 code units. */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Every word of `text` that starts with one of `terms` (case-insensitive), as the whole word, in
 * order and never overlapping: what a results page highlights in an excerpt.
 */
export function matchingWords(text: string, terms: readonly string[]): TextRange[] {
  const found: TextRange[] = [];
  const wordRest = /[\p{L}\p{M}\p{N}]*/uy;
  for (const term of terms) {
    if (term === '') continue;
    for (const match of text.matchAll(wordStartPattern(term, 'giu'))) {
      wordRest.lastIndex = match.index + match[0].length;
      wordRest.exec(text);
      found.push({ start: match.index, end: wordRest.lastIndex });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const words: TextRange[] = [];
  for (const range of found) if (range.start >= (words.at(-1)?.end ?? 0)) words.push(range);
  return words;
}

// A word start is anything not preceded by a letter, mark or digit; the `u` and `i` flags compare
// case-insensitively without changing string lengths (unlike lower-casing the text).
function wordStartPattern(term: string, flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(term)}`, flags);
}

function firstMatch(text: string, terms: readonly string[]): { start: number; end: number } | undefined {
  let best: { start: number; end: number } | undefined;
  for (const term of terms) {
    if (term === '') continue;
    const found = wordStartPattern(term, 'iu').exec(text);
    if (found !== null && (best === undefined || found.index < best.start)) {
      best = { start: found.index, end: found.index + found[0].length };
    }
  }
  return best;
}

function escapeRegExp(literal: string): string {
  // Only syntax characters: in `u` mode escaping anything else is itself a syntax error.
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function cutAround(text: string, matchStart: number, matchEnd: number): string {
  if (text.length <= EXCERPT_MAX_LENGTH) return text;

  // Start a little before the match, but no later than needed to fill the excerpt up to the end.
  let start = Math.max(0, Math.min(matchStart - LEAD_IN, text.length - (EXCERPT_MAX_LENGTH - 1)));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space !== -1 && space < matchStart ? space + 1 : start;
    if (isLowSurrogate(text, start)) start += 1;
  }
  const lead = start > 0 ? ELLIPSIS : '';

  let end = start + EXCERPT_MAX_LENGTH - lead.length;
  if (end >= text.length) return lead + text.slice(start);

  end -= ELLIPSIS.length;
  const space = text.lastIndexOf(' ', end);
  if (space > start && space >= matchEnd) end = space;
  else if (isLowSurrogate(text, end)) end -= 1;
  return `${lead}${text.slice(start, end).trimEnd()}${ELLIPSIS}`;
}

// True when `index` falls between the two halves of a surrogate pair, where cutting would leave
// half a character.
function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}
