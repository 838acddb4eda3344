import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Diagnostic, SourceLocation } from '../model/diagnostics.ts';
import type {
  CalculatorDef,
  ExampleDef,
  FactDef,
  PackDef,
  ParameterDef,
  ParameterValueDef,
  RoundingModeDef,
  RuleDef,
  SourceDef,
} from '../model/pack.ts';
import { describeBytes, fileSizeProblem, PACK_LIMITS } from '../model/limits.ts';
import { readFormula } from './formula.ts';
import { checkPackFile, isWellFormedFact, type PackFileKind } from './schemas.ts';
import { yamlParser, type YamlStore } from './stored-yaml.ts';
import type { ParsedYaml } from './yaml.ts';

/**
 * What a pack file says once its schema has passed it: the pack model's type without what the loader
 * adds (locations, `wellFormed`). The schema and these types describe the same fields, so a valid
 * file is taken as it is, once; only a file that broke its schema is salvaged field by field.
 */
type Written<T> = Omit<T, 'wellFormed' | 'at' | 'locate' | 'sourceAt' | 'valuesAt'>;
type PackFile = Omit<Written<PackDef>, 'roundingModes' | 'sources' | 'facts' | 'parameters' | 'rules' | 'calculators' | 'examples' | 'dir'> & {
  roundingModes?: Written<RoundingModeDef>[];
};
type ParameterFile = Omit<Written<ParameterDef>, 'values'> & { values: Written<ParameterValueDef>[] };
type RuleFile = Omit<Written<RuleDef>, 'parameters'> & { parameters?: string[] };

/** The result of loading one pack folder: the pack (as far as it could be read) and every problem met. */
export interface LoadedPack {
  pack: PackDef;
  diagnostics: Diagnostic[];
  /** Files that could not be read at all (missing or unreadable), as opposed to files with problems. */
  unreadable: string[];
  /** How many YAML files were read. */
  fileCount: number;
}

const FOLDERS: readonly { folder: string; kind: PackFileKind }[] = [
  { folder: 'parameters', kind: 'parameter' },
  { folder: 'rules', kind: 'rule' },
  { folder: 'calculators', kind: 'calculator' },
  { folder: 'examples', kind: 'examples' },
];

/** How packs are read. */
export interface LoadOptions extends YamlStore {
  /** Where file locations in diagnostics are shown relative to (default: the working directory). */
  displayRoot?: string;
  /**
   * Whether the worked examples are read and checked (default true). A service does not run them,
   * and a year's published samples can be most of a pack's text: it reads the rest.
   */
  examples?: boolean;
  /**
   * Only the packs for these tax years are read (default: every pack). A pack whose pack.yaml does
   * not plainly name its year is read all the same, so that its problems are reported.
   */
  taxYears?: readonly string[];
}

/** Finds pack folders (folders holding a pack.yaml) at or under each path, in a stable order. */
export function discoverPackDirs(paths: readonly string[]): { dirs: string[]; missing: string[] } {
  const dirs: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(join(dir, 'pack.yaml'))) {
      dirs.push(dir);
      return;
    }
    if (depth === 0) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(join(dir, entry.name), depth - 1);
    }
  };
  for (const path of paths) {
    const absolute = resolve(path);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) {
      missing.push(path);
      continue;
    }
    walk(absolute, 3);
  }
  return { dirs: [...new Set(dirs)], missing };
}

/**
 * The tax year a pack folder's pack.yaml names, read without loading the pack; undefined when the
 * file cannot be read or does not name one plainly (loading the pack then says why).
 */
export function declaredTaxYear(dir: string, options: YamlStore = {}): string | undefined {
  const id = asRecord(readPackYaml(dir, options)?.taxYear).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A pack folder's id, version and tax year as its pack.yaml plainly names them, read without loading
 * the pack; undefined when the file cannot be read or does not name each of them as text.
 */
export function declaredPack(dir: string, options: YamlStore = {}): { id: string; version: string; taxYear: PackDef['taxYear'] } | undefined {
  const meta = readPackYaml(dir, options);
  const { id, from, toExclusive } = asRecord(meta?.taxYear);
  const fields = [meta?.id, meta?.version, id, from, toExclusive];
  if (!meta || !fields.every((field) => typeof field === 'string')) return undefined;
  return { id: meta.id as string, version: meta.version as string, taxYear: { id: id as string, from: from as string, toExclusive: toExclusive as string } };
}

/** A pack folder's pack.yaml, parsed; undefined when it cannot be read or does not parse. */
function readPackYaml(dir: string, options: YamlStore): Record<string, unknown> | undefined {
  try {
    if (fileSizeProblem(statSync(join(dir, 'pack.yaml')).size)) return undefined;
    const parsed = yamlParser(options)('pack.yaml', readFileSync(join(dir, 'pack.yaml'), 'utf8'));
    return parsed.diagnostics.length === 0 ? asRecord(parsed.value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one pack folder: every file parsed strictly and checked against its schema, then assembled.
 * Items whose file has problems are kept as far as they can be read, so that one mistake is reported
 * once and does not cascade into a flood of follow-on diagnostics.
 */
export function loadPack(dir: string, options: LoadOptions = {}): LoadedPack {
  const displayRoot = options.displayRoot ?? process.cwd();
  const parseYaml = yamlParser(options);
  const diagnostics: Diagnostic[] = [];
  const unreadable: string[] = [];
  let fileCount = 0;
  const display = (file: string) => {
    const relativePath = relative(displayRoot, file);
    return relativePath.startsWith('..') ? file : relativePath;
  };

  const packFile = join(dir, 'pack.yaml');
  const tooLarge = packSizeProblem(dir, display);
  if (tooLarge) {
    diagnostics.push({ kind: 'parse', message: tooLarge, location: { file: display(packFile), line: 1, column: 1 } });
    const empty = { roundingModes: [], sources: [], facts: [], parameters: [], rules: [], calculators: [], examples: [] };
    return { pack: { ...salvagePackFile({}, dir), ...empty, dir, at: { file: display(packFile), line: 1, column: 1 } }, diagnostics, unreadable, fileCount };
  }

  const read = (file: string, kind: PackFileKind): { parsed: ParsedYaml; valid: boolean } | undefined => {
    let text: string;
    try {
      // A file past the size limit is refused unread (parseYaml refuses the same text once read).
      const tooLarge = fileSizeProblem(statSync(file).size);
      if (tooLarge) {
        fileCount++;
        diagnostics.push({ kind: 'parse', message: tooLarge, location: { file: display(file), line: 1, column: 1 } });
        return undefined;
      }
      text = readFileSync(file, 'utf8');
    } catch {
      unreadable.push(display(file));
      diagnostics.push({ kind: 'parse', message: 'the file cannot be read', location: { file: display(file), line: 1, column: 1 } });
      return undefined;
    }
    fileCount++;
    const parsed = parseYaml(display(file), text);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.diagnostics.length > 0) return undefined;
    const problems = checkPackFile(kind, parsed.value);
    for (const problem of problems) {
      diagnostics.push({ kind: 'schema', message: problem.message, location: parsed.locate(problem.path, { key: problem.atKey }) });
    }
    return { parsed, valid: problems.length === 0 };
  };

  const packRead = read(packFile, 'pack');
  const meta = asRecord(packRead?.parsed.value);
  const packAt: SourceLocation = { file: display(packFile), line: 1, column: 1 };
  const written = packRead?.valid ? (packRead.parsed.value as PackFile) : salvagePackFile(meta, dir);
  const pack: PackDef = {
    ...written,
    roundingModes: [],
    sources: [],
    facts: [],
    parameters: [],
    rules: [],
    calculators: [],
    examples: [],
    dir,
    at: packAt,
  };
  if (packRead) {
    const locate = packRead.parsed.locate;
    if (typeof meta.version === 'string' && meta.version !== basename(dir)) {
      diagnostics.push({ kind: 'schema', message: `version \`${String(meta.version)}\` does not match the folder name \`${basename(dir)}\``, location: locate(['version']) });
    }
    if (typeof meta.id === 'string' && meta.id !== basename(dirname(dir))) {
      diagnostics.push({ kind: 'schema', message: `id \`${String(meta.id)}\` does not match the parent folder name \`${basename(dirname(dir))}\``, location: locate(['id']) });
    }
    (packRead.valid ? (written.roundingModes ?? []) : asArray(meta.roundingModes).map(salvageRoundingMode)).forEach((mode, index) => {
      pack.roundingModes.push({ ...mode, at: locate(['roundingModes', index]) });
    });
  }

  const sourcesRead = read(join(dir, 'sources.yaml'), 'sources');
  if (sourcesRead) {
    const sources = sourcesRead.valid ? (sourcesRead.parsed.value as { sources: Written<SourceDef>[] }).sources : asArray(asRecord(sourcesRead.parsed.value).sources).map(salvageSource);
    sources.forEach((source, index) => pack.sources.push({ ...source, at: sourcesRead.parsed.locate(['sources', index]) }));
  }

  const factsRead = read(join(dir, 'facts.yaml'), 'facts');
  if (factsRead) {
    asArray(asRecord(factsRead.parsed.value).facts).forEach((entry, index) => {
      const at = factsRead.parsed.locate(['facts', index]);
      // Each entry is checked on its own: a broken one is still known by its id (so it is not
      // reported missing everywhere), but its shape and question are not read.
      if (factsRead.valid || isWellFormedFact(entry)) pack.facts.push({ ...(entry as Written<FactDef>), wellFormed: true, at });
      else pack.facts.push({ ...salvageFact(asRecord(entry)), wellFormed: false, at });
    });
  }

  for (const { folder, kind } of FOLDERS) {
    if (kind === 'examples' && options.examples === false) continue;
    const folderPath = join(dir, folder);
    if (!existsSync(folderPath)) continue;
    const files = yamlFilesIn(folderPath).sort();
    for (const name of files) {
      const file = join(folderPath, name);
      const result = read(file, kind);
      if (!result) continue;
      const { parsed, valid } = result;
      const value = asRecord(parsed.value);
      const at = parsed.locate([]);
      const locate = (path: (string | number)[]) => parsed.locate(path);
      if (kind === 'parameter') pack.parameters.push(buildParameter(value, at, parsed, valid));
      if (kind === 'rule') {
        const rule = buildRule(value, at, locate, valid);
        // A formula's names include the pack's rounding modes: without a readable pack.yaml it is not read.
        if (valid && packRead && typeof value.formula === 'string') {
          const read = readFormula(rule, value.formula, parsed, pack);
          diagnostics.push(...read.diagnostics);
          pack.rules.push(read.rule);
        } else {
          pack.rules.push(rule);
        }
      }
      if (kind === 'calculator') pack.calculators.push(buildCalculator(value, at, locate, valid));
      if (kind === 'examples') {
        const examples = valid ? (value as { examples: Written<ExampleDef>[] }).examples : asArray(value.examples).map(salvageExample);
        examples.forEach((example, index) => pack.examples.push({ ...example, at: parsed.locate(['examples', index]) }));
      }
      const stem = name.replace(/\.ya?ml$/, '');
      if (kind !== 'examples' && typeof value.id === 'string' && stem !== value.id) {
        diagnostics.push({ kind: 'schema', message: `the file name should match the ${kind}'s id: \`${value.id}.yaml\``, location: parsed.locate(['id']) });
      }
    }
  }
  return { pack, diagnostics, unreadable, fileCount };
}

/**
 * Why a pack folder is too large to read, if it is: the size of all its YAML files together (the
 * worked examples too, whether read or not, so that every reader of the pack judges it alike).
 * A file over the file limit is left out: it is refused on its own, unread.
 */
function packSizeProblem(dir: string, display: (file: string) => string): string | undefined {
  const files = ['pack.yaml', 'sources.yaml', 'facts.yaml', ...FOLDERS.flatMap(({ folder }) => yamlFilesIn(join(dir, folder)).map((name) => join(folder, name)))];
  let total = 0;
  let largest = { file: '', bytes: 0 };
  for (const file of files) {
    let bytes = 0;
    try {
      bytes = statSync(join(dir, file)).size;
    } catch {
      continue; // reported as missing or unreadable when the pack is read
    }
    if (fileSizeProblem(bytes)) continue;
    total += bytes;
    if (bytes > largest.bytes) largest = { file, bytes };
  }
  if (total <= PACK_LIMITS.packBytes) return undefined;
  return `the pack's YAML files come to ${describeBytes(total)}; a rule pack may hold at most ${describeBytes(PACK_LIMITS.packBytes)} (the largest file is ${display(join(dir, largest.file))}, ${describeBytes(largest.bytes)})`;
}

function yamlFilesIn(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'));
}

function buildParameter(value: Record<string, unknown>, at: SourceLocation, parsed: ParsedYaml, wellFormed: boolean): ParameterDef {
  const parameter = wellFormed ? (value as ParameterFile) : salvageParameter(value);
  return {
    ...parameter,
    values: parameter.values.map((entry, index) => ({ ...entry, at: parsed.locate(['values', index]), sourceAt: parsed.locate(['values', index, 'source']) })),
    wellFormed,
    at,
    valuesAt: parsed.locate(['values']),
    locate: parsed.locate,
  };
}

function buildRule(value: Record<string, unknown>, at: SourceLocation, locate: (path: (string | number)[]) => SourceLocation, wellFormed: boolean): RuleDef {
  const rule = wellFormed ? (value as RuleFile) : salvageRule(value);
  return { ...rule, parameters: rule.parameters ?? [], wellFormed, at, locate };
}

function buildCalculator(value: Record<string, unknown>, at: SourceLocation, locate: (path: (string | number)[]) => SourceLocation, wellFormed: boolean): CalculatorDef {
  return { ...(wellFormed ? (value as Written<CalculatorDef>) : salvageCalculator(value)), wellFormed, at, locate };
}

// Salvage: what can still be read from a file that broke its schema. Its items keep their ids and
// the ids they refer to, so one mistake is reported once and does not cascade; everything else
// takes a neutral value, and `wellFormed: false` keeps the later checks off it.

function salvagePackFile(meta: Record<string, unknown>, dir: string): PackFile {
  const jurisdiction = asRecord(meta.jurisdiction);
  const taxYear = asRecord(meta.taxYear);
  return {
    id: text(meta.id, basename(dirname(dir))),
    version: text(meta.version, basename(dir)),
    title: text(meta.title, ''),
    ...(typeof meta.description === 'string' ? { description: meta.description } : {}),
    jurisdiction: { code: text(jurisdiction.code, ''), title: text(jurisdiction.title, '') },
    taxYear: { id: text(taxYear.id, ''), from: text(taxYear.from, ''), toExclusive: text(taxYear.toExclusive, '') },
    currency: text(meta.currency, ''),
  };
}

function salvageRoundingMode(entry: unknown): Written<RoundingModeDef> {
  const mode = asRecord(entry);
  return {
    id: text(mode.id, ''),
    to: mode.to === 'dollar' ? 'dollar' : 'cent',
    method: mode.method === 'floor' || mode.method === 'ceil' ? mode.method : 'half-up',
    source: text(mode.source, ''),
    explanation: text(mode.explanation, ''),
  };
}

function salvageSource(entry: unknown): Written<SourceDef> {
  const source = asRecord(entry);
  return { id: text(source.id, ''), kind: text(source.kind, 'internal-validation'), reference: text(source.reference, ''), title: text(source.title, '') };
}

function salvageFact(fact: Record<string, unknown>): Written<FactDef> {
  return { id: text(fact.id, ''), title: text(fact.title, ''), authority: fact.authority === 'input' ? 'input' : 'derived', schemaTag: text(fact.schemaTag, ''), shape: { type: 'money' } };
}

function salvageExample(entry: unknown, index: number): Written<ExampleDef> {
  const example = asRecord(entry);
  return {
    name: text(example.name, `example ${index + 1}`),
    calculator: text(example.calculator, ''),
    facts: asRecord(example.facts),
    expect: asRecord(example.expect),
    source: text(example.source, ''),
    ...(typeof example.note === 'string' ? { note: example.note } : {}),
  };
}

function salvageParameter(value: Record<string, unknown>): ParameterFile {
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    unit: text(value.unit, 'ratio') as ParameterDef['unit'],
    values: asArray(value.values).map((entry) => {
      const period = asRecord(asRecord(entry).effectivePeriod);
      return {
        effectivePeriod: { from: text(period.from, ''), toExclusive: typeof period.toExclusive === 'string' ? period.toExclusive : null },
        source: text(asRecord(entry).source, ''),
      };
    }),
  };
}

function salvageRule(value: Record<string, unknown>): RuleFile {
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    requires: strings(value.requires),
    provides: strings(value.provides),
    parameters: strings(value.parameters),
    sources: strings(value.sources),
    sourcePolicy: value.sourcePolicy === 'not-required' ? 'not-required' : 'required',
    rounding: text(value.rounding, 'none'),
    explanation: text(value.explanation, ''),
  };
}

function salvageCalculator(value: Record<string, unknown>): Written<CalculatorDef> {
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    description: text(value.description, ''),
    inputFacts: strings(value.inputFacts),
    outputFacts: strings(value.outputFacts),
    factsSchemaName: text(value.factsSchemaName, 'Facts'),
    reportSchemaName: text(value.reportSchemaName, 'Report'),
    supportedHelpModes: [],
    // A template that broke the schema is not read: its facts and fields cannot be trusted.
    report: { tag: 'Report', fields: {} },
  };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function strings(value: unknown): string[] {
  return asArray(value).filter((item): item is string => typeof item === 'string');
}
