/**
 * A seeded rule-pack fuzzer: random edits to copies of the valid packs (line deletions, duplications
 * and swaps, indentation, hostile scalars and tags, aliases, dropped and renamed keys, truncation,
 * broken expressions, formulas thousands of terms long or deep, odd encodings, whole files gone or garbled), each loaded by the engine, which
 * must never throw or hang and must either report diagnostics or load the pack cleanly.
 *
 *   npm run fuzz:packs                          PACK_FUZZ_RUNS mutants (default 2000) from PACK_FUZZ_SEED (default 1)
 *   PACK_FUZZ_SEED=123 PACK_FUZZ_RUNS=1 npm run fuzz:packs   replay one mutant, printing it
 *
 * Mutants run in one child process (the engine in-process there, for speed) watched by a watchdog, so
 * a hang is reported with its seed instead of stalling the run. Failing mutants are written out for
 * inspection under PACK_FUZZ_OUT (default: a pack-fuzz-failures folder in the system temp folder).
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isScalar, parseDocument, visit } from 'yaml';
import { formatDiagnostic, loadPacks, runExamples, type LoadedPacks } from '../../engine/index.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);
/** CPU time allowed per mutated pack; the shipped packs load in ~50 ms warm. */
export const PACK_BUDGET_MS = 2000;

// ---------------------------------------------------------------------------------------------
// Source packs

/** A valid pack read into memory: where it came from, its id and version, and its files by relative path. */
export interface SourcePack {
  dir: string;
  id: string;
  version: string;
  files: ReadonlyMap<string, string>;
  /** Calculator ids its clean load plans, the reference for edits that keep the meaning. */
  calculators: readonly string[];
}

let sources: SourcePack[] | undefined;

/** The shipped `rulepacks/<id>/1.0.0` packs and the valid fixture, read once; each must load cleanly as it is. */
export function sourcePacks(): SourcePack[] {
  if (sources) return sources;
  const shipped = readdirSync(join(ROOT, 'rulepacks'))
    .sort()
    .map((id) => join('rulepacks', id, '1.0.0'))
    .filter((dir) => existsSync(join(ROOT, dir, 'pack.yaml')));
  sources = [...shipped, 'test/fixtures/packs/valid/fixture-pay/1.0.0'].map((dir) => {
    const files = new Map<string, string>();
    const walk = (folder: string) => {
      for (const name of readdirSync(join(ROOT, dir, folder)).sort()) {
        const path = folder ? `${folder}/${name}` : name;
        if (statSync(join(ROOT, dir, path)).isDirectory()) walk(path);
        else files.set(path, readFileSync(join(ROOT, dir, path), 'utf8'));
      }
    };
    walk('');
    const loaded = loadPacks([join(ROOT, dir)]);
    if (loaded.diagnostics.length > 0 || loaded.packs.length !== 1) {
      throw new Error(`the source pack ${dir} does not load cleanly, so it cannot be fuzzed:\n${loaded.diagnostics.map(formatDiagnostic).join('\n')}`);
    }
    const parts = dir.split('/');
    return { dir, id: parts.at(-2)!, version: parts.at(-1)!, files, calculators: loaded.packs[0]!.plans.map((plan) => plan.def.id).sort() };
  });
  return sources;
}

// ---------------------------------------------------------------------------------------------
// Randomness and hostile material


type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, below: number) => Math.floor(random() * below);

const nested = (depth: number, open: string, close: string, inner: string) => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Scalars a pack should never hold, written as YAML source. */
const HOSTILE_SCALARS: readonly (() => string)[] = [
  () => '99999999999999999999999',
  () => '1e309',
  () => '-1e309',
  () => '.inf',
  () => '-.nan',
  () => '0x7fffffffffffffff',
  () => '0o777',
  () => '1_000_000',
  () => '-0',
  () => '1e-400',
  () => '123456789012345678901234567890.5',
  () => '"12345678901234567890123"',
  () => '__proto__',
  () => '"__proto__"',
  () => 'constructor',
  () => 'prototype',
  () => 'toString',
  () => 'hasOwnProperty',
  () => '"\\u202e\\u0000\\ud800"',
  () => '"\u{1F4A5}\u200b\u0301"',
  () => "'\u202eRTL'",
  () => 'Ωmega-ñ',
  () => '"\\x00\\x1b[31m"',
  () => '!!js/function "function () { return process.exit(7) }"',
  () => '!!js/undefined ""',
  () => '!!js/regexp /a+/',
  () => '!!python/object/apply:os.system ["id"]',
  () => '!!binary aGVsbG8=',
  () => '!!set { a, b }',
  () => '!!omap [ a: 1, b: 2 ]',
  () => '!!timestamp 2025-07-01',
  () => '!!float "1"',
  () => '!!int "x"',
  () => '!!str 1',
  () => '!custom value',
  () => '!<tag:yaml.org,2002:js/function> x',
  () => '&anchor value',
  () => '*anchor',
  () => '*undefinedAlias',
  () => `"${'x'.repeat(200_000)}"`,
  () => 'y'.repeat(100_000),
  () => nested(100, '[', ']', '1'),
  () => nested(3000, '[', ']', '1'),
  () => nested(1000, '{a: ', '}', '1'),
  () => 'null',
  () => '~',
  () => '',
  () => '{}',
  () => '[]',
  () => 'true',
  () => 'yes',
  () => 'off',
  () => '2025-07-01',
  () => '12:30:00',
  () => '"2025-13-45"',
  () => '|',
  () => '>-',
  () => '? complex',
  () => '- a',
  () => ': :',
  () => '{ a: 1, a: 2 }',
  () => '"unterminated',
  () => '[unclosed',
  () => '@reserved',
  () => '`backtick',
  () => '%percent',
  () => '#',
];

/** Blocks inserted whole: alias bombs, merge keys, directives, extra documents, prototype keys. */
const HOSTILE_BLOCKS: readonly (() => string)[] = [
  () => {
    // A "billion laughs": each level refers to the previous ten times.
    const levels = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    for (let level = 1; level < 10; level++) levels.push(`l${level}: &l${level} [${Array(10).fill(`*l${level - 1}`).join(', ')}]`);
    return levels.join('\n');
  },
  () => 'base: &base { id: aliased, title: Aliased }\nmerged:\n  <<: *base\n  extra: 1',
  () => '<<: { id: merged }',
  () => '%YAML 1.1\n---',
  () => '---\nsecond: document',
  () => '...',
  () => '? [complex, key]\n: value',
  () => '__proto__: { polluted: true }',
  () => 'constructor: { prototype: { polluted: true } }',
  () => 'hook: !!js/function "function () { globalThis.pwned = true }"',
  () => Array.from({ length: 5000 }, (_, index) => `k${index}: ${index}`).join('\n'),
  () => `deep: ${nested(5000, '[', ']', '1')}`,
  () => `deep:\n${Array.from({ length: 300 }, (_, index) => `${'  '.repeat(index + 1)}k:`).join('\n')} 1`,
  () => '\t tabbed: 1',
  () => '\u0000',
];

const KEY_RENAMES: readonly ((key: string) => string)[] = [
  () => '__proto__',
  () => 'constructor',
  () => 'prototype',
  () => 'toString',
  (key) => `${key}x`,
  (key) => key.toUpperCase(),
  (key) => (key.length > 1 ? `${key[1]}${key[0]}${key.slice(2)}` : `${key}${key}`),
  (key) => key.replace(/a/, '\u0430'), // Cyrillic a: looks the same, is not
  () => '""',
  () => '[a, b]',
  (key) => `"${key} "`,
  (key) => `${key}: ${key}`,
];

/** Expression operators replaced by these: unknown, dangerous-sounding, or real but of another arity. */
const OPERATOR_SWAPS = ['"++"', 'iff', 'eval', 'Function', '__proto__', 'constructor', '"=="', 'require', '"/"', 'max', 'bracket', 'let', 'var', 'param', 'round'];
const VAR_SWAPS = ['__proto__', 'constructor.prototype', 'nosuch', '""', 'grossPay.__proto__.polluted', 'toString', '"a.b.c.d.e"', '0'];
const NUMBER_SWAPS = ['0', '-1', '1e308', '"NaN"', '99999999999999999999', '0.1', '-0', '"1/0"'];

// ---------------------------------------------------------------------------------------------
// Edits

/** One edit applied to a mutant: which file, which operator, and where or what. */
export interface Edit {
  file: string;
  op: string;
  detail: string;
}

type Content = string | Buffer;

/** A mutated copy of a source pack, fully determined by its seed. */
export interface Mutant {
  seed: number;
  source: SourcePack;
  files: Map<string, Content>;
  edits: Edit[];
}

const KEY_LINE = /^(\s*(?:- )?)([A-Za-z_$][\w.$-]*|"[^"]*"):(\s|$)/;

function lineEdit(text: string, random: Random): { text: string; op: string; detail: string } {
  const lines = text.split('\n');
  const at = int(random, lines.length);
  const keyLines = lines.map((line, index) => (KEY_LINE.test(line) ? index : -1)).filter((index) => index >= 0);
  const op = pick(random, ['delete-line', 'duplicate-line', 'swap-lines', 'reindent', 'replace-scalar', 'replace-scalar', 'replace-scalar', 'drop-key', 'rename-key', 'insert-block', 'truncate', 'blow-up', 'encoding']);
  switch (op) {
    case 'delete-line':
      lines.splice(at, 1);
      return { text: lines.join('\n'), op, detail: `line ${at + 1}` };
    case 'duplicate-line':
      lines.splice(at, 0, lines[at]!);
      return { text: lines.join('\n'), op, detail: `line ${at + 1}` };
    case 'swap-lines': {
      const other = random() < 0.5 ? Math.min(lines.length - 1, at + 1) : int(random, lines.length);
      [lines[at], lines[other]] = [lines[other]!, lines[at]!];
      return { text: lines.join('\n'), op, detail: `lines ${at + 1} and ${other + 1}` };
    }
    case 'reindent': {
      const change = pick(random, ['+1', '-1', '+2', '-2', 'tab', 'none']);
      const line = lines[at]!;
      const indent = line.length - line.trimStart().length;
      const next = change === 'tab' ? '\t' : change === 'none' ? '' : ' '.repeat(Math.max(0, indent + Number(change)));
      lines[at] = `${next}${line.trimStart()}`;
      return { text: lines.join('\n'), op, detail: `line ${at + 1} ${change}` };
    }
    case 'replace-scalar':
      return replaceScalar(lines, random);
    case 'drop-key': {
      if (keyLines.length === 0) return lineEdit(text, random);
      const start = pick(random, keyLines);
      const indent = lines[start]!.length - lines[start]!.trimStart().length;
      let end = start + 1;
      while (end < lines.length && (lines[end]!.trim() === '' || lines[end]!.length - lines[end]!.trimStart().length > indent)) end++;
      const removed = lines.splice(start, end - start);
      return { text: lines.join('\n'), op, detail: `lines ${start + 1}-${end} (${removed[0]!.trim().slice(0, 40)})` };
    }
    case 'rename-key': {
      if (keyLines.length === 0) return lineEdit(text, random);
      const index = pick(random, keyLines);
      const [, prefix, key] = lines[index]!.match(KEY_LINE)!;
      const renamed = pick(random, KEY_RENAMES)(key!);
      lines[index] = `${prefix}${renamed}${lines[index]!.slice(prefix!.length + key!.length)}`;
      return { text: lines.join('\n'), op, detail: `line ${index + 1}: ${key} -> ${renamed}` };
    }
    case 'insert-block': {
      const block = pick(random, HOSTILE_BLOCKS)();
      const indent = random() < 0.7 ? '' : ' '.repeat(int(random, 6));
      lines.splice(at, 0, ...block.split('\n').map((line) => `${indent}${line}`));
      return { text: lines.join('\n'), op, detail: `before line ${at + 1}: ${JSON.stringify(block.slice(0, 60))}${block.length > 60 ? '...' : ''}` };
    }
    case 'truncate': {
      const cut = int(random, text.length + 1);
      return { text: text.slice(0, cut), op, detail: `at character ${cut} of ${text.length}` };
    }
    case 'blow-up': {
      const times = pick(random, [100, 1000, 5000]);
      lines.splice(at, 0, ...Array(times).fill(lines[at]!));
      return { text: lines.join('\n'), op, detail: `line ${at + 1} repeated ${times} times` };
    }
    default: {
      const how = pick(random, ['bom', 'crlf', 'cr', 'nul', 'lone-surrogate', 'nbsp-indent']);
      const changed =
        how === 'bom'
          ? `\ufeff${text}`
          : how === 'crlf'
            ? text.replace(/\n/g, '\r\n')
            : how === 'cr'
              ? text.replace(/\n/g, '\r')
              : how === 'nul'
                ? `${text.slice(0, text.length >> 1)}\u0000${text.slice(text.length >> 1)}`
                : how === 'lone-surrogate'
                  ? `${text.slice(0, text.length >> 1)}\ud800${text.slice(text.length >> 1)}`
                  : text.replace(/^ {2}/gm, '\u00a0\u00a0');
      return { text: changed, op: 'encoding', detail: how };
    }
  }
}

/** Replaces the value after a key, one item of a list, or one value inside a flow mapping. */
function replaceScalar(lines: string[], random: Random): { text: string; op: string; detail: string } {
  const candidates = lines.map((line, index) => (/:\s+\S|^\s*- \S/.test(line) ? index : -1)).filter((index) => index >= 0);
  if (candidates.length === 0) return { text: lines.join('\n'), op: 'replace-scalar', detail: 'no scalar found' };
  const index = pick(random, candidates);
  const line = lines[index]!;
  const value = pick(random, HOSTILE_SCALARS)();
  const flowValues = [...line.matchAll(/(:\s*)([^,{}[\]]+?)(\s*[,}\]])/g)];
  let next: string;
  if (flowValues.length > 0 && random() < 0.5) {
    const chosen = pick(random, flowValues);
    next = `${line.slice(0, chosen.index! + chosen[1]!.length)}${value}${line.slice(chosen.index! + chosen[1]!.length + chosen[2]!.length)}`;
  } else {
    const colon = line.search(/:\s+\S/);
    next = colon >= 0 ? `${line.slice(0, colon)}: ${value}` : line.replace(/^(\s*- ).*$/, `$1${value}`);
  }
  lines[index] = next;
  return { text: lines.join('\n'), op: 'replace-scalar', detail: `line ${index + 1}: ${JSON.stringify(value.slice(0, 50))}${value.length > 50 ? `... (${value.length} chars)` : ''}` };
}

/** Edits inside a rule's expression: unknown operators, odd references, other facts (cycles), wild numbers, deep nesting. */
function expressionEdit(text: string, random: Random, factIds: readonly string[], parameterIds: readonly string[]): { text: string; op: string; detail: string } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('expression:'));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && (lines[end]!.startsWith(' ') || lines[end]!.trim() === '')) end++;
  const at = start + int(random, end - start);
  const line = lines[at]!;
  const how = pick(random, ['operator', 'var', 'var-fact', 'param', 'number', 'deep', 'divide-by-zero', 'delete-line']);
  const replaceFirst = (pattern: RegExp, replacement: string) => {
    const matches = [...line.matchAll(new RegExp(pattern.source, 'g'))];
    if (matches.length === 0) return false;
    const chosen = pick(random, matches);
    lines[at] = `${line.slice(0, chosen.index!)}${replacement}${line.slice(chosen.index! + chosen[0].length)}`;
    return true;
  };
  let done = false;
  let what = '';
  if (how === 'operator') {
    what = pick(random, OPERATOR_SWAPS);
    done = replaceFirst(/"[^"\s]{1,3}"(?=:)|\b(?:if|let|round|max|min|var|param|bracket)(?=:)/, what);
  } else if (how === 'var' || how === 'var-fact') {
    what = how === 'var' ? pick(random, VAR_SWAPS) : pick(random, factIds);
    done = replaceFirst(/var: [^,}\s]+/, `var: ${what}`);
  } else if (how === 'param') {
    what = pick(random, [...parameterIds, 'nosuch', '__proto__']);
    done = replaceFirst(/param: [^,}\s]+/, `param: ${what}`);
  } else if (how === 'number') {
    what = pick(random, NUMBER_SWAPS);
    done = replaceFirst(/(?<=[\s[,])-?\d+(?:\.\d+)?(?=[\s\],}]|$)/, what);
  } else if (how === 'deep') {
    const depth = pick(random, [50, 500, 3000]);
    what = `{ "+": [...] } nested ${depth} deep`;
    done = replaceFirst(/\{ var: [^}]+\}/, nested(depth, '{ "+": [1, ', '] }', '1'));
  } else if (how === 'divide-by-zero') {
    what = '{ "/": [1, 0] }';
    done = replaceFirst(/\{ var: [^}]+\}/, what);
  } else {
    lines.splice(at, 1);
    done = true;
  }
  if (!done) return undefined;
  return { text: lines.join('\n'), op: 'break-expression', detail: `line ${at + 1} ${how}${what ? `: ${what.slice(0, 50)}` : ''}` };
}

/**
 * Edits to a rule's `formula` text, sized to hurt: runs of thousands of subtractions (each nests on
 * the one before), parentheses, calls and `let` values nested or chained thousands deep, thousands of
 * unknown names. The formula may be one line or a block (`formula: |-`).
 */
function formulaEdit(text: string, random: Random): { text: string; op: string; detail: string } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('formula:'));
  if (start < 0) return undefined;
  const inline = lines[start]!.slice('formula:'.length).trim();
  let first = start;
  let last = start;
  if (/^[|>]/.test(inline)) {
    first = start + 1;
    last = first;
    while (last + 1 < lines.length && /^\s+\S/.test(lines[last + 1]!)) last++;
    if (first >= lines.length || !/^\s+\S/.test(lines[first]!)) return undefined;
  }
  const opening = first === start ? 'formula: '.length : lines[first]!.length - lines[first]!.trimStart().length;
  const name = /[A-Za-z][\w.]*(?![\w(-])/.exec(lines.slice(first, last + 1).join(' ').slice(first === start ? opening : 0))?.[0] ?? '1';
  const how = pick(random, ['chain', 'sum', 'parens', 'calls', 'lets', 'unknown']);
  const size = pick(random, how === 'unknown' ? [5, 500] : [20, 150, 3000]);
  const wrap = (before: string, after: string) => {
    lines[first] = `${lines[first]!.slice(0, opening)}${before}${lines[first]!.slice(opening)}`;
    lines[last] = `${lines[last]}${after}`;
  };
  if (how === 'chain') wrap('', ` − ${name}`.repeat(size));
  else if (how === 'sum') wrap('', ` + ${name}`.repeat(size));
  else if (how === 'parens') wrap('('.repeat(size), ')'.repeat(size));
  else if (how === 'calls') wrap('max('.repeat(size), ')'.repeat(size));
  else if (how === 'lets') wrap(`let ${Array.from({ length: size }, (_, index) => `v${index} = ${index === 0 ? '0' : `v${index - 1}`}`).join('; ')} in (`, ')');
  else wrap('', Array.from({ length: size }, (_, index) => ` + unknown${index}`).join(''));
  return { text: lines.join('\n'), op: 'break-formula', detail: `line ${first + 1} ${how} × ${size}` };
}

/** Ids of the facts a pack declares, for edits that make one rule refer to another's output. */
function factIdsOf(source: SourcePack): string[] {
  return [...(source.files.get('facts.yaml') ?? '').matchAll(/^ {2}- id: (\S+)/gm)].map((match) => match[1]!);
}

/** Makes the mutant a seed names: a source pack and one to three edits to its files. */
export function makeMutant(seed: number): Mutant {
  const random = seededRandom(seed);
  const source = pick(random, sourcePacks());
  const files = new Map<string, Content>(source.files);
  const edits: Edit[] = [];
  const factIds = factIdsOf(source);
  const parameterIds = [...source.files.keys()].filter((path) => path.startsWith('parameters/')).map((path) => path.slice(11).replace(/\.yaml$/, ''));
  const count = random() < 0.6 ? 1 : random() < 0.6 ? 2 : 3;
  for (let index = 0; index < count; index++) {
    const names = [...files.keys()].sort();
    const file = pick(random, names);
    const content = files.get(file)!;
    const roll = random();
    if (roll < 0.06 && file !== 'pack.yaml') {
      // Whole-file edits. pack.yaml is never removed: without it the folder is no longer a pack at all.
      const how = pick(random, ['delete', 'empty', 'copy', 'garbage-bytes', 'not-a-mapping']);
      if (how === 'delete') files.delete(file);
      if (how === 'empty') files.set(file, '');
      if (how === 'copy') files.set(file.replace(/(\.ya?ml)$/, `-copy$1`), content);
      if (how === 'garbage-bytes') files.set(file, Buffer.from(Array.from({ length: 64 + int(random, 512) }, () => int(random, 256))));
      if (how === 'not-a-mapping') files.set(file, pick(random, ['- a\n- b\n', '"just a string"\n', '42\n', 'null\n']));
      edits.push({ file, op: `file-${how}`, detail: '' });
      continue;
    }
    if (typeof content !== 'string') continue;
    const edited = (roll < 0.35 && file.startsWith('rules/') ? expressionEdit(content, random, factIds, parameterIds) : undefined) ?? lineEdit(content, random);
    files.set(file, edited.text);
    edits.push({ file, op: edited.op, detail: edited.detail });
  }
  // Formula edits draw from a stream of their own, so that adding them left every other seed's mutant as it was.
  const hostile = seededRandom(seed + HOSTILE_STREAM);
  if (hostile() < 0.1) {
    const formulas = [...files.keys()].filter((file) => file.startsWith('rules/') && typeof files.get(file) === 'string' && /^formula:/m.test(files.get(file) as string)).sort();
    if (formulas.length > 0) {
      const file = pick(hostile, formulas);
      const edited = formulaEdit(files.get(file) as string, hostile);
      if (edited) {
        files.set(file, edited.text);
        edits.push({ file, op: edited.op, detail: edited.detail });
      }
    }
  }
  return { seed, source, files, edits };
}

/**
 * Where the stream of formula edits starts, apart from the main stream of every seed; chosen so that
 * the seeds the suite replays for what they once showed (FORMER_FAILURES, and its validate-pack seeds)
 * get none.
 */
const HOSTILE_STREAM = 1_000_118;

// ---------------------------------------------------------------------------------------------
// Checking

/** What loading one mutant came to. `problems` is empty when every property held. */
export interface Verdict {
  seed: number;
  source: string;
  edits: Edit[];
  ms: number;
  outcome: 'clean' | 'diagnostics' | 'threw';
  diagnostics: number;
  sameMeaning: boolean;
  problems: string[];
  /** Blemishes that break no property, such as a message that shows `[object Object]`. */
  notes: string[];
}

/**
 * The data a YAML text stands for, with numbers as written (the engine refuses digits a double loses);
 * undefined if it does not parse, repeats a key, or uses aliases or complex keys, all of which the
 * engine reports. Duplicate keys are found here in one pass: the parser's own check is quadratic in
 * the keys of a mapping, which made this comparison cost as much as the load it explains.
 */
function meaningOf(content: Content | undefined): string | undefined {
  // Past this size the edit was a blow-up or a huge value, which always changes the data, and parsing
  // it again would double the cost of the mutant for nothing.
  if (typeof content !== 'string' || content.length > 100_000) return undefined;
  try {
    const document = parseDocument(content, { schema: 'core', uniqueKeys: false, strict: true });
    if (document.errors.length > 0 || document.warnings.length > 0) return undefined;
    const written: string[] = [];
    let plain = true;
    visit(document, {
      Alias: () => void (plain = false),
      Map: (_key, node) => {
        const seen = new Set<string>();
        for (const pair of node.items) {
          if (!isScalar(pair.key) || seen.has(String(pair.key.value))) plain = false;
          else seen.add(String(pair.key.value));
        }
      },
      Scalar: (_key, node) => void (typeof node.value === 'number' && written.push(node.source ?? String(node.value))),
    });
    return plain ? JSON.stringify([document.toJS(), written]) : undefined;
  } catch {
    return undefined;
  }
}

const originalMeanings = new Map<string, string | undefined>();

/** True when every file of the mutant stands for the same data as the source's. */
function keepsMeaning(mutant: Mutant): boolean {
  if (mutant.files.size !== mutant.source.files.size) return false;
  for (const [file, original] of mutant.source.files) {
    const mutated = mutant.files.get(file);
    if (mutated === original) continue;
    const key = `${mutant.source.dir}/${file}`;
    if (!originalMeanings.has(key)) originalMeanings.set(key, meaningOf(original));
    const before = originalMeanings.get(key);
    if (before === undefined || before !== meaningOf(mutated)) return false;
  }
  return true;
}

/** Writes the mutant as `<root>/<id>/<version>/...`, the layout the loader expects. */
export function writeMutant(mutant: Mutant, root: string): string {
  const dir = join(root, mutant.source.id, mutant.source.version);
  for (const [file, content] of mutant.files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  return dir;
}

function diagnosticProblems(loaded: LoadedPacks, root: string, notes: string[]): string[] {
  const problems: string[] = [];
  for (const diagnostic of loaded.diagnostics) {
    const { kind, message, location } = diagnostic;
    const shown = (() => {
      try {
        return formatDiagnostic(diagnostic);
      } catch (error) {
        problems.push(`formatDiagnostic threw: ${String(error)}`);
        return JSON.stringify(diagnostic).slice(0, 200);
      }
    })();
    if (typeof kind !== 'string' || (kind as string) === '') problems.push(`diagnostic without a kind: ${shown}`);
    if (typeof message !== 'string' || message.trim() === '') problems.push(`diagnostic without a message: ${shown}`);
    else if (message.includes('[object Object]')) notes.push(`message shows [object Object]: ${shown}`);
    if (!location || typeof location.file !== 'string' || !resolve(root, location.file).startsWith(root)) problems.push(`diagnostic pointing outside the pack: ${shown}`);
    if (!location || !Number.isInteger(location.line) || location.line < 1 || !Number.isInteger(location.column) || location.column < 1) problems.push(`diagnostic with a bad line or column: ${shown}`);
  }
  return problems;
}

const prototypeKeys = () => [Object.prototype, Array.prototype, Function.prototype].map((proto) => Object.getOwnPropertyNames(proto).sort().join(',')).join('|');

/**
 * Loads one mutant and checks: loadPacks does not throw and returns within the budget; diagnostics
 * are well formed and point into the pack; a pack without diagnostics has a plan per calculator and
 * runs its examples without throwing; an edit that kept every file's data loads exactly as before;
 * and nothing was added to the built-in prototypes.
 */
export function checkMutant(mutant: Mutant, workDir: string): Verdict {
  const root = join(workDir, `m${mutant.seed}`);
  writeMutant(mutant, root);
  const sameMeaning = keepsMeaning(mutant);
  const problems: string[] = [];
  const notes: string[] = [];
  const before = prototypeKeys();
  const cpuAtStart = process.cpuUsage();
  let loaded: LoadedPacks | undefined;
  try {
    loaded = loadPacks([root], { displayRoot: root });
  } catch (error) {
    problems.push(`loadPacks threw: ${(error as Error)?.stack ?? String(error)}`);
  }
  let outcome: Verdict['outcome'] = 'threw';
  if (loaded) {
    outcome = loaded.diagnostics.length > 0 ? 'diagnostics' : 'clean';
    problems.push(...diagnosticProblems(loaded, root, notes));
    if (loaded.packs.length !== 1) problems.push(`expected the one pack, found ${loaded.packs.length}`);
    const report = loaded.packs[0];
    if (report && outcome === 'clean') {
      const planned = report.plans.map((plan) => plan.def.id).sort();
      const defined = report.pack.calculators.map((calculator) => calculator.id).sort();
      if (planned.join() !== defined.join()) problems.push(`clean load, but calculators [${defined}] were planned as [${planned}]`);
      try {
        runExamples(report.pack.examples, report.plans);
      } catch (error) {
        problems.push(`runExamples threw on a clean pack: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
    if (sameMeaning && (outcome !== 'clean' || report?.plans.map((plan) => plan.def.id).sort().join() !== mutant.source.calculators.join())) {
      problems.push(`the edit kept every file's data, yet the pack no longer loads as before: ${loaded.diagnostics.map(formatDiagnostic).join('; ')}`);
    }
  }
  // CPU time, not wall time: the budget catches runaway work, and must not trip when the machine is busy.
  const cpu = process.cpuUsage(cpuAtStart);
  const ms = (cpu.user + cpu.system) / 1000;
  // Loading may grow linearly with a pack's size: a mutant that repeats a line thousands of times
  // gets the budget times its growth, so only a hang or a worse-than-linear blow-up trips it.
  const size = (files: ReadonlyMap<string, Content>) => [...files.values()].reduce((total, content) => total + content.length, 0);
  const budget = PACK_BUDGET_MS * Math.max(1, size(mutant.files) / size(mutant.source.files));
  if (ms > budget) problems.push(`took ${Math.round(ms)} ms of CPU, over the ${Math.round(budget)} ms budget`);
  if (prototypeKeys() !== before) problems.push('a built-in prototype gained or lost properties');
  rmSync(root, { recursive: true, force: true });
  return { seed: mutant.seed, source: mutant.source.dir, edits: mutant.edits, ms, outcome, diagnostics: loaded?.diagnostics.length ?? 0, sameMeaning, problems, notes };
}

// ---------------------------------------------------------------------------------------------
// Known engine failures

/** A mutant the engine is known to fail on: what goes wrong, and a pattern every one of its problems matches. */
export interface KnownFailure {
  seed: number;
  what: string;
  signature: RegExp;
}

/**
 * Engine failures the fuzzer finds and that are not fixed yet, kept so they can be replayed and so the
 * suite tells them from new ones. Remove a seed once it passes, and add it to FORMER_FAILURES.
 */
export const KNOWN_ENGINE_FAILURES: readonly KnownFailure[] = [];

/**
 * Seeds that once crashed or stalled the engine, replayed by the suite as ordinary seeds that must
 * pass: shapes and report templates from entries that broke the schema were trusted (34, 2641, 3905,
 * 1045, 596, 678), and thousands of schema errors in one file took 16 s to describe (2663).
 */
export const FORMER_FAILURES: readonly number[] = [34, 2641, 3905, 1045, 596, 678, 2663];

/** The known failure a seed stands for, if any. */
export function knownFailure(seed: number): KnownFailure | undefined {
  return KNOWN_ENGINE_FAILURES.find((known) => known.seed === seed);
}

// ---------------------------------------------------------------------------------------------
// Running many, with a watchdog

/** The result of a batch: every verdict in seed order, and the seed that hung or killed the runner, if one did. */
export interface FuzzRun {
  verdicts: Verdict[];
  stuck?: { seed: number; reason: string };
}

/** Seeds written as `1-60,596,1045`: single seeds and inclusive ranges. */
export function parseSeeds(spec: string): number[] {
  return spec.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to) || to! < from!) throw new Error(`bad seed range \`${part}\``);
    return Array.from({ length: to! - from! + 1 }, (_, index) => from! + index);
  });
}

/**
 * Checks the mutants of the given seeds in one child process, so the engine runs in-process there
 * while a hang or a crash of the process cannot take this one down: if no verdict arrives within
 * `watchdogMs`, the child is killed and the seed it was on is reported as stuck.
 */
export function fuzzPacks(options: { seeds: string; watchdogMs?: number; onVerdict?: (verdict: Verdict) => void }): Promise<FuzzRun> {
  const watchdogMs = options.watchdogMs ?? 30_000;
  const seeds = parseSeeds(options.seeds);
  const child = fork(THIS_FILE, ['--child', options.seeds], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const verdicts: Verdict[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk}`.slice(-4000)));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (stuck?: FuzzRun['stuck']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      resolve(stuck ? { verdicts, stuck } : { verdicts });
    };
    const nextSeed = () => seeds[verdicts.length]!;
    let timer = setTimeout(() => finish({ seed: nextSeed(), reason: `no verdict within ${watchdogMs} ms (hang)` }), watchdogMs);
    child.on('message', (verdict: Verdict) => {
      verdicts.push(verdict);
      options.onVerdict?.(verdict);
      clearTimeout(timer);
      timer = setTimeout(() => finish({ seed: nextSeed(), reason: `no verdict within ${watchdogMs} ms (hang)` }), watchdogMs);
    });
    child.on('exit', (code, signal) => {
      if (verdicts.length >= seeds.length) finish();
      else finish({ seed: nextSeed(), reason: `the fuzzing process died (exit ${code ?? signal}): ${stderr.trim().slice(-2000)}` });
    });
  });
}

/** Lines that show a mutant: its edits, and for each edited file the stretch that differs from the source. */
export function describeMutant(mutant: Mutant): string {
  const lines = [`seed ${mutant.seed}: ${mutant.source.dir}`];
  for (const edit of mutant.edits) lines.push(`  ${edit.op} in ${edit.file}${edit.detail ? `: ${edit.detail}` : ''}`);
  for (const [file, content] of mutant.files) {
    const original = mutant.source.files.get(file);
    if (content === original) continue;
    if (typeof content !== 'string') {
      lines.push(`--- ${file}: ${content.length} bytes ${content.toString('hex').slice(0, 120)}...`);
      continue;
    }
    const before = (original ?? '').split('\n');
    const after = content.split('\n');
    let head = 0;
    while (head < before.length && head < after.length && before[head] === after[head]) head++;
    let tail = 0;
    while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
    const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text);
    lines.push(`--- ${file}${original === undefined ? ' (new file)' : ''}, from line ${head + 1}:`);
    for (const line of before.slice(head, before.length - tail).slice(0, 20)) lines.push(`-${clip(line)}`);
    for (const line of after.slice(head, after.length - tail).slice(0, 20)) lines.push(`+${clip(line)}`);
  }
  return lines.join('\n');
}

async function childMain(spec: string): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'pack-fuzz-'));
  try {
    for (const seed of parseSeeds(spec)) {
      const verdict = checkMutant(makeMutant(seed), workDir);
      await new Promise<void>((done) => process.send!(verdict, () => done()));
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  process.disconnect();
}

async function cliMain(): Promise<number> {
  const runs = Number(process.env.PACK_FUZZ_RUNS ?? 2000);
  const firstSeed = Number(process.env.PACK_FUZZ_SEED ?? 1);
  const out = process.env.PACK_FUZZ_OUT ?? join(tmpdir(), 'pack-fuzz-failures');
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(firstSeed) || firstSeed < 0) {
    throw new Error('PACK_FUZZ_RUNS must be a whole number of at least 1 and PACK_FUZZ_SEED a whole number of at least 0');
  }
  const say = (text: string) => process.stdout.write(`${text}\n`);
  say(`pack fuzz: ${runs} mutants from seed ${firstSeed} of ${sourcePacks().map((source) => source.dir).join(', ')}`);
  const started = performance.now();
  const outcomes: Record<string, number> = {};
  const notes: string[] = [];
  let slowest = { seed: 0, ms: 0 };
  let done = 0;
  const run = await fuzzPacks({
    seeds: `${firstSeed}-${firstSeed + runs - 1}`,
    onVerdict: (verdict) => {
      done++;
      outcomes[verdict.outcome] = (outcomes[verdict.outcome] ?? 0) + 1;
      if (verdict.ms > slowest.ms) slowest = { seed: verdict.seed, ms: verdict.ms };
      notes.push(...verdict.notes.map((note) => `seed ${verdict.seed}: ${note}`));
      if (runs === 1 || verdict.problems.length > 0) {
        const known = knownFailure(verdict.seed);
        say(`${describeMutant(makeMutant(verdict.seed))}\n  -> ${verdict.outcome}, ${verdict.diagnostics} diagnostic(s), ${Math.round(verdict.ms)} ms${known ? ` (known: ${known.what})` : ''}`);
        for (const problem of verdict.problems) say(`  PROBLEM: ${problem}`);
        for (const note of verdict.notes) say(`  note: ${note}`);
      }
      if (done % 250 === 0) say(`  ${done}/${runs}`);
    },
  });
  const failing = run.verdicts.filter((verdict) => verdict.problems.length > 0).map((verdict) => verdict.seed);
  if (run.stuck) {
    say(`STUCK at seed ${run.stuck.seed}: ${run.stuck.reason}\n${describeMutant(makeMutant(run.stuck.seed))}`);
    failing.push(run.stuck.seed);
  }
  for (const seed of failing) {
    // Fresh each time: a folder left by an earlier run could hold files this mutant deleted.
    rmSync(join(out, `seed-${seed}`), { recursive: true, force: true });
    writeMutant(makeMutant(seed), join(out, `seed-${seed}`));
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say(`${run.verdicts.length} mutants in ${seconds} s: ${Object.entries(outcomes).map(([outcome, count]) => `${count} ${outcome}`).join(', ')}; slowest seed ${slowest.seed} at ${Math.round(slowest.ms)} ms`);
  if (notes.length > 0) say(`${notes.length} note(s), e.g. ${notes.slice(0, 3).join(' | ')}`);
  if (failing.length === 0) {
    say('OK: no crash, no hang, every mutant reported or loaded cleanly');
    return 0;
  }
  // Group by the known failure each seed's problems match, so a new kind of failure stands out.
  const byKind = new Map<string, number[]>();
  for (const seed of failing) {
    const problems = run.verdicts.find((verdict) => verdict.seed === seed)?.problems ?? [run.stuck?.reason ?? ''];
    const kind = KNOWN_ENGINE_FAILURES.find((known) => problems.every((problem) => known.signature.test(problem)))?.what ?? 'NEW: matches no known failure';
    byKind.set(kind, [...(byKind.get(kind) ?? []), seed]);
  }
  say(`FAILED seeds: ${failing.join(', ')}`);
  for (const [kind, seeds] of byKind) say(`  ${kind}: ${seeds.join(', ')}`);
  say(`mutants written under ${out}; replay one with PACK_FUZZ_SEED=<seed> PACK_FUZZ_RUNS=1 npm run fuzz:packs`);
  return 1;
}

// Run directly: the CLI, or the child it (or the suite) starts. No top-level await: the suite loads
// this module through uvu's require hook, which compiles it to CommonJS.
if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const running = process.argv[2] === '--child' ? childMain(process.argv[3]!).then(() => 0) : cliMain();
  running.then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
