import type { CST } from 'yaml';

// What a YAML file's written form says before it is read as data: how deeply it nests, and what a
// syntax error means, said in the words of someone editing a pack rather than the parser's.

/** A collection or scalar of the written form, with how many collections hold it (a collection counting itself). */
interface WrittenNode {
  token: CST.Token;
  level: number;
}

/** Every node of the written form, walked without recursion (the form may nest without limit). */
function writtenNodes(tokens: readonly CST.Token[]): WrittenNode[] {
  const nodes: WrittenNode[] = [];
  const pending: WrittenNode[] = tokens.map((token) => ({ token, level: 0 })).reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    nodes.push(node);
    const { token } = node;
    const children: CST.Token[] = [];
    if (token.type === 'document' && token.value) children.push(token.value);
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      for (const item of token.items) {
        if (item.key) children.push(item.key);
        if (item.value) children.push(item.value);
      }
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index]!;
      pending.push({ token: child, level: node.level + (isCollection(child) ? 1 : 0) });
    }
  }
  return nodes;
}

function isCollection(token: CST.Token): boolean {
  return token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection';
}

/** The offset of the first collection nested more than `limit` levels deep, if any. */
export function tooDeeplyNested(tokens: readonly CST.Token[], limit: number): number | undefined {
  // Only collections can hold anything: scalars are not visited.
  const pending: CST.Token[] = [];
  const levels: number[] = [];
  const visit = (token: CST.Token | null | undefined, level: number) => {
    if (!token || (token.type !== 'document' && !isCollection(token))) return;
    pending.push(token);
    levels.push(token.type === 'document' ? level : level + 1);
  };
  for (let index = tokens.length - 1; index >= 0; index--) visit(tokens[index], 0);
  while (pending.length > 0) {
    const token = pending.pop()!;
    const level = levels.pop()!;
    if (level > limit) return token.offset;
    if (token.type === 'document') visit(token.value, level);
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      for (let index = token.items.length - 1; index >= 0; index--) {
        const item = token.items[index]!;
        visit(item.value, level);
        visit(item.key, level);
      }
    }
  }
  return undefined;
}

/** A syntax problem as the YAML parser reports it. */
export interface YamlProblem {
  code: string;
  message: string;
  pos: [number, number];
}

/** A syntax problem in plain words, with the offset it is best shown at (where the mistake was made). */
export interface YamlFault {
  message: string;
  offset: number;
}

/**
 * Says what a syntax error means: what is wrong, where it was written (an unclosed quote or bracket
 * where it opens, not where the file ends), and the key it concerns.
 */
export function describeYamlFault(problem: YamlProblem, text: string, tokens: readonly CST.Token[]): YamlFault {
  const lines = new TextLines(text);
  const pos = Math.min(problem.pos[0], text.length);
  const line = lines.indexAt(pos);
  const { code, message } = problem;

  if (code === 'TAB_AS_INDENT') return { message: 'this line is indented with a tab; indent with spaces only (YAML does not allow tabs)', offset: lines.start(line) };

  if (code === 'MISSING_CHAR' && /quote/.test(message)) {
    const quote = message.includes('"') ? '"' : "'";
    const open = writtenNodes(tokens).find((node) => isUnclosedQuote(node.token, quote));
    const at = open?.token.offset ?? pos;
    return { message: `${subjectAt(lines, at)} starts with \`${quote}\` but has no closing \`${quote}\`; end the text with \`${quote}\``, offset: at };
  }

  if (code === 'BAD_INDENT' && /^Flow (map|sequence)/.test(message)) {
    const open = writtenNodes(tokens).find((node) => node.token.type === 'flow-collection' && !isClosed(node.token));
    if (open && open.token.type === 'flow-collection') {
      const [opening, closing] = open.token.start.source === '{' ? ['{', '}'] : ['[', ']'];
      return { message: `${subjectAt(lines, open.token.offset)} opens with \`${opening}\` but has no closing \`${closing}\`; end it with \`${closing}\``, offset: open.token.offset };
    }
    return { message: `a value in \`{ … }\` or \`[ … ]\` continues on a line indented no further than its key; indent the continuation, or keep the value on one line`, offset: lines.textStart(line) };
  }

  if (code === 'BLOCK_AS_IMPLICIT_KEY' && /sequence/.test(message)) return misplacedListItem(lines, line);
  if (code === 'BAD_INDENT' && /sequence items/.test(message)) return misplacedListItem(lines, line);
  if (code === 'BAD_INDENT' && /mapping items/.test(message)) return misalignedLine(lines, line);

  if (code === 'BLOCK_AS_IMPLICIT_KEY') {
    // `key: value` where the value holds `: ` of its own, or a key indented under a key that already has a value.
    const rest = text.slice(pos, lines.end(line));
    if (/:(\s|$)/.test(stripQuoted(rest))) {
      const written = lines.text(line);
      if (/,\s*[A-Za-z_][\w-]*\s*:/.test(stripQuoted(rest))) {
        const pairs = written.replace(/^\s*(?:-\s+)?/, '').trim();
        return { message: `this line holds several \`key: value\` pairs separated by commas; write them in braces, as one item: \`{ ${pairs} }\``, offset: lines.textStart(line) };
      }
      const key = keyOnLine(written);
      const subject = key ? `the value of \`${key}\`` : 'this value';
      return { message: `${subject} contains \`: \`, which YAML reads as the start of another key; put the whole value in double quotes`, offset: pos };
    }
    return overIndented(lines, line, pos);
  }

  if (code === 'MULTILINE_IMPLICIT_KEY' || (code === 'MISSING_CHAR' && /map values/.test(message))) {
    const written = lines.text(line);
    const noSpace = /^\s*(?:-\s+)?([A-Za-z_][\w.-]*):(\S.*)$/.exec(written);
    if (noSpace) return { message: `\`${noSpace[1]}\` needs a space after its colon: write \`${noSpace[1]}: ${noSpace[2]!.trim()}\``, offset: lines.textStart(line) };
    if (!stripQuoted(written).includes(':')) {
      const word = /^\s*(?:-\s+)?([^\s:#]+)/.exec(written)?.[1];
      const hint = word ? `; is the colon after \`${word}\` missing? (\`${word}: …\`)` : '';
      return { message: `this line is neither \`key: value\` nor a list item (\`- …\`)${hint}`, offset: lines.textStart(line) };
    }
    return overIndented(lines, line, pos);
  }

  if (code === 'BLOCK_IN_FLOW') {
    const before = text.slice(pos, lines.end(line)).split(':')[0]!;
    const words = before.trim().split(/\s+/);
    if (words.length > 1) {
      const last = words.at(-1)!;
      return { message: `inside \`{ … }\` the \`key: value\` pairs are separated by commas; is a comma missing before \`${last}\`?`, offset: pos + before.lastIndexOf(last) };
    }
    return { message: 'a `key: value` inside `[ … ]` or `{ … }` must stay on its line and be separated from the next by a comma', offset: pos };
  }

  if (code === 'UNEXPECTED_TOKEN' && /at node end/.test(message)) {
    const previous = text.slice(lines.start(line), pos).trimEnd().at(-1);
    const subject = subjectAt(lines, pos);
    if (previous === '"' || previous === "'") return { message: `there is more text after the closing quote of ${subject.replace(/^this /, 'the ')}; put the whole value inside the quotes`, offset: pos };
    if (previous === ']' || previous === '}') return { message: `there is more text after the closing \`${previous}\` of ${subject.replace(/^this /, 'the ')}; remove it, or move it inside`, offset: pos };
  }

  if (code === 'BAD_SCALAR_START') {
    const character = text[pos] ?? '';
    const shown = character === '`' ? 'a backtick (`)' : `\`${character}\``;
    return { message: `${subjectAt(lines, pos)} starts with ${shown}, which YAML keeps for itself; put the whole value in double quotes`, offset: pos };
  }

  if (code === 'MULTIPLE_DOCS') return { message: 'the file holds a second YAML document (after a `---` line); a pack file is one document', offset: pos };
  if (code === 'TAG_RESOLVE_FAILED' || code === 'BAD_TAG' || /tag/i.test(message)) return { message: 'rule packs take plain values: remove the `!` tag', offset: pos };

  return { message: `this is not valid YAML: ${firstSentence(message)}`, offset: pos };
}

/** A key indented under a key that already has a value on its own line. */
function overIndented(lines: TextLines, line: number, pos: number): YamlFault {
  const next = lines.nextWritten(line);
  const key = next === undefined ? undefined : keyOnLine(lines.text(next));
  const above = keyOnLine(lines.text(line));
  // `from` out-dented between `id` and `toExclusive`: the line out of step is the one above, not the one YAML stumbles on.
  const before = lines.previousWritten(line);
  const beside = before === undefined ? undefined : keyOnLine(lines.text(before));
  if (next !== undefined && key && above && beside && lines.indent(before!) === lines.indent(next) && lines.indent(line) < lines.indent(next)) {
    return {
      message: `\`${above}\` is indented less than \`${beside}\` above it and \`${key}\` below it; start it in column ${lines.indent(next) + 1} with them (keys of one mapping start in the same column)`,
      offset: lines.textStart(line),
    };
  }
  if (next === undefined || !key) return { message: 'a key and its colon must be on one line, and a key with a value on its line cannot have keys under it', offset: pos };
  const reason = above
    ? `\`${key}\` is indented more than \`${above}\` on the line above, so YAML reads it as part of the value of \`${above}\`; start \`${key}\` in the same column as \`${above}\``
    : `\`${key}\` is indented more than the line above, so YAML reads it as part of that line's value; line it up with the keys it belongs with`;
  return { message: reason, offset: lines.textStart(next) };
}

/** A line that lines up with no mapping above it. */
function misalignedLine(lines: TextLines, line: number): YamlFault {
  const written = lines.text(line);
  const offset = lines.textStart(line);
  if (/^\s*-(\s|$)/.test(written)) return misplacedListItem(lines, line);
  const key = keyOnLine(written);
  if (key) {
    const indent = lines.indent(line);
    let parent: number | undefined;
    for (let index = line - 1; index >= 0; index--) {
      if (lines.isBlank(index) || lines.indent(index) >= indent) continue;
      if (keyOnLine(lines.text(index))) {
        parent = index;
        break;
      }
    }
    const hint = parent === undefined ? '' : ` (\`${keyOnLine(lines.text(parent))}\` starts in column ${lines.indent(parent) + 1})`;
    return { message: `\`${key}\` is not lined up with the keys above it${hint}: keys of one mapping start in the same column`, offset };
  }
  if (/^\s*[{[]/.test(written)) return { message: 'this line is not lined up with anything above it: an item of a list starts with `- `, in the same column as the other items', offset };
  return { message: 'this line is not lined up with the lines above it: keys of one mapping start in the same column', offset };
}

/** A `- ` item that lines up with no list above it. */
function misplacedListItem(lines: TextLines, line: number): YamlFault {
  const indent = lines.indent(line);
  for (let index = line - 1; index >= 0; index--) {
    if (lines.isBlank(index) || !/^\s*-(\s|$)/.test(lines.text(index)) || lines.indent(index) === indent) continue;
    return { message: `this list item is not lined up with the list above it (its items start in column ${lines.indent(index) + 1}, on line ${index + 1}): every \`- \` of one list starts in the same column`, offset: lines.textStart(line) };
  }
  return { message: 'this list item (`- `) is in a place where a `key: value` is expected; indent it under the key whose list it belongs to', offset: lines.textStart(line) };
}

/** What a value at `offset` is to the analyst: the value of the key on its line, or an item of a list. */
function subjectAt(lines: TextLines, offset: number): string {
  const written = lines.text(lines.indexAt(offset));
  const key = keyOnLine(written);
  if (key && offset > lines.start(lines.indexAt(offset)) + written.indexOf(key)) return `the value of \`${key}\``;
  return /^\s*-\s/.test(written) ? 'this list item' : 'this value';
}

/** The key a line starts with (after any `- `), if it starts with one. */
function keyOnLine(line: string): string | undefined {
  const match = /^\s*(?:-\s+)*(?:"([^"]*)"|'([^']*)'|([^\s:#'"{}[\],&*!|>%@`-][^:#]*?|[A-Za-z0-9_][^:#]*?))\s*:(?:\s|$)/.exec(line);
  return match ? (match[1] ?? match[2] ?? match[3])!.trim() : undefined;
}

function isUnclosedQuote(token: CST.Token, quote: string): boolean {
  if (token.type !== (quote === '"' ? 'double-quoted-scalar' : 'single-quoted-scalar')) return false;
  const source = token.source;
  if (source.length < 2 || !source.endsWith(quote)) return true;
  // An escaped quote (`\"`) does not close a double-quoted text.
  return quote === '"' && /(^|[^\\])(\\\\)*\\"$/.test(source.slice(1));
}

function isClosed(token: CST.FlowCollection): boolean {
  return token.end.some((end) => end.type === 'flow-map-end' || end.type === 'flow-seq-end');
}

/** The text with quoted parts blanked, so that a colon inside quotes is not taken for a key's. */
function stripQuoted(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, (quoted) => ' '.repeat(quoted.length));
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '').trim();
}

/** The lines of a text, by offset. */
class TextLines {
  private readonly starts: number[] = [0];
  constructor(private readonly source: string) {
    for (let index = source.indexOf('\n'); index !== -1; index = source.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }
  /** The 0-based line an offset is on. */
  indexAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
  start(line: number): number {
    return this.starts[line]!;
  }
  end(line: number): number {
    const next = this.starts[line + 1];
    return next === undefined ? this.source.length : next - 1;
  }
  text(line: number): string {
    return this.source.slice(this.start(line), this.end(line)).replace(/\r$/, '');
  }
  indent(line: number): number {
    return /^ */.exec(this.text(line))![0].length;
  }
  /** Where the line's text starts, after its indentation. */
  textStart(line: number): number {
    return this.start(line) + /^[ \t]*/.exec(this.text(line))![0].length;
  }
  isBlank(line: number): boolean {
    return /^\s*(#.*)?$/.test(this.text(line));
  }
  /** The last line before `line` with something written on it. */
  previousWritten(line: number): number | undefined {
    for (let index = line - 1; index >= 0; index--) if (!this.isBlank(index)) return index;
    return undefined;
  }
  /** The next line after `line` with something written on it. */
  nextWritten(line: number): number | undefined {
    for (let index = line + 1; index < this.starts.length; index++) if (!this.isBlank(index)) return index;
    return undefined;
  }
}
