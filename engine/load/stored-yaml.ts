import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, isSeq, type Node } from 'yaml';
import type { SourceLocation } from '../model/diagnostics.ts';
import { parseYaml, parseYamlDocument, sourceOffset, type ParsedYaml } from './yaml.ts';

// Parsing a pack's YAML is most of what loading it costs when the parser's code is still cold, as it
// is in a starting service. A build parses each shipped file once and stores what the parse found:
// the value, and where every value and key was written. A load given those stored parses uses the
// one whose text is byte for byte the file's (by digest), and parses anything else as usual; every
// check after parsing runs either way.

/** What parsing one YAML file found, as plain data. */
export interface StoredYaml {
  value: unknown;
  /**
   * Where each value was written, by its path (steps joined by PATH_JOIN, the root's path empty):
   * the offset of the value, of its key (-1 in a sequence), and for a text value the offset of its end.
   */
  at: Record<string, number[]>;
}

/** Stored parses by the digest of the text they were parsed from. */
export type StoredYamlFiles = Record<string, StoredYaml>;

const PATH_JOIN = '\u0000';

/**
 * The files, in a build's output folder, that hold its stored parses: those a service reads, and the
 * worked examples', which only the tools read (a service does not read their parses at boot).
 */
export const STORED_YAML_FILES = { served: 'stored-yaml.json', examples: 'stored-yaml-examples.json' } as const;

/** Changes whenever StoredYaml does, so that a store written by an older build is not misread. */
const STORE_FORMAT = 1;

/** Writes stored parses to a file, for readStoredYaml. */
export function writeStoredYaml(file: string, files: StoredYamlFiles): void {
  writeFileSync(file, JSON.stringify({ format: STORE_FORMAT, files }));
}

/** The stored parses in a file written by writeStoredYaml; none when it is missing, unreadable or of another format. */
export function readStoredYaml(file: string): StoredYamlFiles | undefined {
  try {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; files?: StoredYamlFiles };
    return stored.format === STORE_FORMAT && typeof stored.files === 'object' && stored.files !== null ? stored.files : undefined;
  } catch {
    return undefined;
  }
}

/** The digest a stored parse is filed under: SHA-256 of the file's text. */
export function yamlDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What a parse of `text` found, to store; undefined when the file has problems (it is parsed, and reported, on every load). */
export function storeYaml(text: string): StoredYaml | undefined {
  const { parsed, document } = parseYamlDocument('', text);
  if (parsed.diagnostics.length > 0 || !isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.value)), parsed.value)) return undefined;
  const at: Record<string, number[]> = {};
  // The same walk as ParsedYaml.locate: a value's place, or its key's when it has none of its own.
  const visit = (node: unknown, path: string[], start: number, keyStart: number) => {
    const key = path.join(PATH_JOIN);
    if (key in at) return; // the first of two equal keys is the one found
    const end = isScalar(node) && typeof node.value === 'string' ? node.range?.[1] : undefined;
    at[key] = end === undefined ? [start, keyStart] : [start, keyStart, end];
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const keyAt = rangeStart(pair.key);
        visit(pair.value, [...path, String(pair.key.value)], rangeStart(pair.value) ?? keyAt ?? 0, keyAt ?? 0);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, [...path, String(index)], rangeStart(item) ?? 0, -1));
    }
  };
  visit(document.contents, [], rangeStart(document.contents) ?? 0, -1);
  return { value: parsed.value, at };
}

/** Which stored parses a load may use, and where it stores the parses it makes (a build's). */
export interface YamlStore {
  storedYaml?: StoredYamlFiles;
  storeYamlInto?: StoredYamlFiles;
}

/** Parses YAML as parseYaml does, taking the stored parse of the same text when there is one. */
export function yamlParser(options: YamlStore): (file: string, text: string) => ParsedYaml {
  const { storedYaml, storeYamlInto } = options;
  if (!storedYaml && !storeYamlInto) return parseYaml;
  return (file, text) => {
    const digest = yamlDigest(text);
    const found = storedYaml?.[digest];
    if (found) return openStoredYaml(file, text, found);
    if (storeYamlInto && !(digest in storeYamlInto)) {
      const stored = storeYaml(text);
      if (stored) storeYamlInto[digest] = stored;
    }
    return parseYaml(file, text);
  };
}

function openStoredYaml(file: string, text: string, stored: StoredYaml): ParsedYaml {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  const at = (offset: number): SourceLocation => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { file, line: low + 1, column: offset - lineStarts[low]! + 1 };
  };
  const entryAt = (path: readonly (string | number)[]) => stored.at[path.map(String).join(PATH_JOIN)];

  const locate: ParsedYaml['locate'] = (path, options = {}) => {
    let best = at(stored.at['']![0]!);
    for (let index = 0; index < path.length; index++) {
      const entry = entryAt(path.slice(0, index + 1));
      if (!entry) return best;
      if (index === path.length - 1 && options.key && entry[1]! >= 0) return at(entry[1]!);
      best = at(entry[0]!);
    }
    return best;
  };
  const locateInText: ParsedYaml['locateInText'] = (path, offset) => {
    const entry = entryAt(path);
    const value = valueAt(stored.value, path);
    if (!entry || entry.length < 3 || typeof value !== 'string') return locate(path);
    return at(sourceOffset(text, entry[0]!, entry[2]!, value, offset));
  };
  // Each load gets its own copy: the loader may keep and adjust what it reads.
  return { value: structuredClone(stored.value), locate, locateInText, diagnostics: [] };
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value;
  for (const step of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[String(step)];
  }
  return current;
}

function rangeStart(node: unknown): number | undefined {
  return (node as Node | undefined)?.range?.[0];
}
