import { Composer, isMap, isPair, isScalar, isSeq, LineCounter, Parser, parseDocument, visit, YAMLParseError, type Document, type Node } from 'yaml';
import { Decimal } from '../money/decimal.ts';
import type { Diagnostic, SourceLocation } from '../model/diagnostics.ts';
import { fileSizeProblem, PACK_LIMITS } from '../model/limits.ts';
import { describeYamlFault, tooDeeplyNested } from './yaml-syntax.ts';

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
 * Parses YAML strictly: duplicate keys, syntax errors, anything but plain data and a file past the
 * pack limits are diagnostics, each said in an analyst's words where the mistake was written.
 * Dates stay strings (YAML 1.2 core schema), so effective periods are never shifted by time zones.
 */
export function parseYaml(file: string, text: string): ParsedYaml {
  return parseYamlDocument(file, text).parsed;
}

/** The parser's settings: strict, and the core schema, so that nothing but plain data is read. */
const PARSE_OPTIONS = { schema: 'core', uniqueKeys: false, strict: true, prettyErrors: false } as const;

/** parseYaml, with the YAML document it read (see stored-yaml.ts, which keeps what a parse found). */
export function parseYamlDocument(file: string, text: string): { parsed: ParsedYaml; document: Document.Parsed } {
  const lineCounter = new LineCounter();
  const at = (offset: number): SourceLocation => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line: Math.max(line, 1), column: Math.max(col, 1) };
  };
  // Past the limits nothing is read: the text is refused before the work it would cost.
  const tooLarge = fileSizeProblem(Buffer.byteLength(text, 'utf8'));
  if (tooLarge) return refused(file, { file, line: 1, column: 1 }, tooLarge);
  const tokens = [...new Parser(lineCounter.addNewLine).parse(text)];
  const deep = tooDeeplyNested(tokens, PACK_LIMITS.yamlLevels);
  if (deep !== undefined) {
    const message = `this is nested more than ${PACK_LIMITS.yamlLevels} levels deep (mappings and lists inside one another); a rule pack file may nest at most ${PACK_LIMITS.yamlLevels} levels`;
    return refused(file, at(deep), message);
  }
  let document: Document.Parsed | undefined;
  for (const composed of new Composer(PARSE_OPTIONS).compose(tokens, true, text.length)) {
    if (!document) document = composed;
    else {
      document.errors.push(new YAMLParseError([composed.range[0], composed.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
      break;
    }
  }
  document ??= parseDocument('', PARSE_OPTIONS);

  const diagnostics: Diagnostic[] = [];
  // After a syntax error the parser's further complaints are mostly echoes of it: report the first.
  const problem = [...document.errors, ...document.warnings][0];
  if (problem) {
    const fault = describeYamlFault({ code: problem.code, message: problem.message, pos: problem.pos }, text, tokens);
    diagnostics.push({ kind: 'parse', message: fault.message, location: at(fault.offset) });
  }
  // Numbers reach the engine as JS numbers; refuse any whose written digits a double cannot hold.
  // Every key repeated in its mapping is reported, naming it (the parser's own check is quadratic
  // in the keys of a mapping, and names neither the key nor its first place).
  visit(document, {
    Map(_key, node) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        const start = rangeStart(pair.key) ?? 0;
        const first = seen.get(name);
        if (first === undefined) seen.set(name, start);
        else diagnostics.push({ kind: 'parse', message: `duplicate key \`${name}\`: it appears twice in this mapping (first on line ${at(first).line}); keep one`, location: at(start) });
      }
    },
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

/** What a refused file reads as: nothing, with the one diagnostic that says why. */
function refused(file: string, location: SourceLocation, message: string): { parsed: ParsedYaml; document: Document.Parsed } {
  const nowhere = () => ({ file, line: 1, column: 1 });
  return { parsed: { value: null, locate: nowhere, locateInText: nowhere, diagnostics: [{ kind: 'parse', message, location }] }, document: parseDocument('', PARSE_OPTIONS) };
}
