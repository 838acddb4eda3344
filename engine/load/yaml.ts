import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { Decimal } from '../money/decimal.ts';
import type { Diagnostic, SourceLocation } from '../model/diagnostics.ts';

/** A parsed YAML file that can say where any value inside it was written. */
export interface ParsedYaml {
  value: unknown;
  /** Location of the value at `path`; with `key: true`, of the key that names it. Falls back to the nearest parent. */
  locate(path: readonly (string | number)[], options?: { key?: boolean }): SourceLocation;
  /** Location of a character of the text value at `path`, by its offset in the value, whatever the scalar's style. */
  locateInText(path: readonly (string | number)[], offset: number): SourceLocation;
  diagnostics: Diagnostic[];
}

/**
 * Parses YAML strictly: duplicate keys, syntax errors and anything but plain data are diagnostics.
 * Dates stay strings (YAML 1.2 core schema), so effective periods are never shifted by time zones.
 */
export function parseYaml(file: string, text: string): ParsedYaml {
  return parseYamlDocument(file, text).parsed;
}

/** parseYaml, with the YAML document it read (see stored-yaml.ts, which keeps what a parse found). */
export function parseYamlDocument(file: string, text: string): { parsed: ParsedYaml; document: Document.Parsed } {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    schema: 'core',
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
  });
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  const diagnostics: Diagnostic[] = [];
  // After a syntax error the parser's further complaints are mostly echoes of it: report the first,
  // plus every duplicate key, which are independent mistakes.
  const problems = [...document.errors, ...document.warnings];
  const firstSyntax = problems.find((problem) => problem.code !== 'DUPLICATE_KEY');
  for (const problem of problems) {
    if (problem.code !== 'DUPLICATE_KEY' && problem !== firstSyntax) continue;
    const what = problem.code === 'DUPLICATE_KEY' ? 'duplicate key' : firstSentence(problem.message);
    diagnostics.push({ kind: 'parse', message: what, location: at(problem.pos[0]) });
  }
  // Numbers reach the engine as JS numbers; refuse any whose written digits a double cannot hold.
  visit(document, {
    Alias(_key, node) {
      diagnostics.push({ kind: 'parse', message: 'aliases are not allowed in rule packs; write the value out', location: at(node.range?.[0] ?? 0) });
    },
    Scalar(_key, node) {
      if (typeof node.value !== 'number') return;
      const written = node.source ?? String(node.value);
      if (!Number.isFinite(node.value)) {
        diagnostics.push({ kind: 'parse', message: 'numbers must be finite', location: at(node.range?.[0] ?? 0) });
      } else if (!sameNumber(written, node.value)) {
        diagnostics.push({
          kind: 'parse',
          message: 'this number has more digits than can be kept exactly; write it as a quoted string',
          location: at(node.range?.[0] ?? 0),
        });
      }
    },
  });
  let value: unknown = null;
  if (diagnostics.length === 0) {
    try {
      value = document.toJS();
    } catch (error) {
      diagnostics.push({ kind: 'parse', message: firstSentence(String((error as Error).message)), location: at(0) });
    }
  }

  const locate: ParsedYaml['locate'] = (path, options = {}) => {
    let node: unknown = document.contents;
    let best: SourceLocation = at(rangeStart(node) ?? 0);
    for (let index = 0; index < path.length; index++) {
      const step = path[index];
      const isLast = index === path.length - 1;
      if (isMap(node)) {
        const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step));
        if (!pair) return best;
        if (isLast && options.key) return at(rangeStart(pair.key) ?? 0);
        node = pair.value;
        best = at(rangeStart(node) ?? rangeStart(pair.key) ?? 0);
      } else if (isSeq(node)) {
        node = node.items[Number(step)];
        if (node === undefined) return best;
        best = at(rangeStart(node) ?? 0);
      } else {
        return best;
      }
    }
    return best;
  };
  const locateInText: ParsedYaml['locateInText'] = (path, offset) => {
    const node = document.getIn(path, true);
    if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return locate(path);
    return at(sourceOffset(text, node.range[0], node.range[1], node.value, offset));
  };
  return { parsed: { value, locate, locateInText, diagnostics }, document };
}

/**
 * Where in the file the character at `offset` of a scalar's value was written. The value's
 * characters appear in the source in order, apart from what the style adds (indentation, quotes,
 * escapes) and line breaks folded into spaces, so walking both side by side finds it.
 */
export function sourceOffset(text: string, start: number, end: number, value: string, offset: number): number {
  let position = start;
  if (text[position] === '|' || text[position] === '>') position = text.indexOf('\n', position) + 1;
  else if (text[position] === '"' || text[position] === "'") position++;
  const find = (character: string) => {
    while (position < end && text[position] !== character && !(character === ' ' && text[position] === '\n')) position++;
  };
  for (let index = 0; index < Math.min(offset, value.length); index++) {
    find(value[index]!);
    position++;
  }
  if (offset < value.length) find(value[offset]!);
  return Math.min(position, end);
}

function sameNumber(written: string, parsed: number): boolean {
  try {
    return new Decimal(written.replace(/_/g, '')).eq(new Decimal(parsed));
  } catch {
    return true; // YAML spellings decimal.js does not read (such as 0o17) are whole numbers kept exactly.
  }
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | undefined)?.range?.[0];
}

function firstSentence(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '').trim();
}
