import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Diagnostic, SourceLocation } from '../model/diagnostics.ts';
import type {
  CalculatorDef,
  ExampleDef,
  FactDef,
  PackDef,
  ParameterDef,
  RoundingModeDef,
  RuleDef,
  SourceDef,
} from '../model/pack.ts';
import { readFormula } from './formula.ts';
import { checkPackFile, isWellFormedFact, type PackFileKind } from './schemas.ts';
import { parseYaml, type ParsedYaml } from './yaml.ts';

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
 * Reads one pack folder: every file parsed strictly and checked against its schema, then assembled.
 * Items whose file has problems are kept as far as they can be read, so that one mistake is reported
 * once and does not cascade into a flood of follow-on diagnostics.
 */
export function loadPack(dir: string, options: { displayRoot?: string } = {}): LoadedPack {
  const displayRoot = options.displayRoot ?? process.cwd();
  const diagnostics: Diagnostic[] = [];
  const unreadable: string[] = [];
  let fileCount = 0;
  const display = (file: string) => {
    const relativePath = relative(displayRoot, file);
    return relativePath.startsWith('..') ? file : relativePath;
  };

  const read = (file: string, kind: PackFileKind): { parsed: ParsedYaml; valid: boolean } | undefined => {
    let text: string;
    try {
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

  const packFile = join(dir, 'pack.yaml');
  const packRead = read(packFile, 'pack');
  const meta = asRecord(packRead?.parsed.value);
  const packAt: SourceLocation = { file: display(packFile), line: 1, column: 1 };
  const pack: PackDef = {
    id: text(meta.id, basename(dirname(dir))),
    version: text(meta.version, basename(dir)),
    title: text(meta.title, ''),
    ...(typeof meta.description === 'string' ? { description: meta.description } : {}),
    jurisdiction: { code: text(asRecord(meta.jurisdiction).code, ''), title: text(asRecord(meta.jurisdiction).title, '') },
    taxYear: {
      id: text(asRecord(meta.taxYear).id, ''),
      from: text(asRecord(meta.taxYear).from, ''),
      toExclusive: text(asRecord(meta.taxYear).toExclusive, ''),
    },
    currency: text(meta.currency, ''),
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
    asArray(meta.roundingModes).forEach((entry, index) => {
      const mode = asRecord(entry);
      pack.roundingModes.push({
        id: text(mode.id, ''),
        to: mode.to === 'dollar' ? 'dollar' : 'cent',
        method: mode.method === 'floor' || mode.method === 'ceil' ? mode.method : 'half-up',
        source: text(mode.source, ''),
        explanation: text(mode.explanation, ''),
        at: locate(['roundingModes', index]),
      } satisfies RoundingModeDef);
    });
  }

  const sourcesRead = read(join(dir, 'sources.yaml'), 'sources');
  if (sourcesRead) {
    asArray(asRecord(sourcesRead.parsed.value).sources).forEach((entry, index) => {
      const source = asRecord(entry);
      pack.sources.push({
        id: text(source.id, ''),
        kind: text(source.kind, 'internal-validation') as SourceDef['kind'],
        reference: text(source.reference, ''),
        title: text(source.title, ''),
        at: sourcesRead.parsed.locate(['sources', index]),
      });
    });
  }

  const factsRead = read(join(dir, 'facts.yaml'), 'facts');
  if (factsRead) {
    asArray(asRecord(factsRead.parsed.value).facts).forEach((entry, index) => {
      const fact = asRecord(entry);
      // A broken entry is still known by its id (so it is not reported missing everywhere), but its
      // shape and question are not read.
      const wellFormed = factsRead.valid || isWellFormedFact(entry);
      const question = fact.question === undefined || !wellFormed ? undefined : asRecord(fact.question);
      pack.facts.push({
        id: text(fact.id, ''),
        title: text(fact.title, ''),
        authority: fact.authority === 'input' ? 'input' : 'derived',
        schemaTag: text(fact.schemaTag, ''),
        shape: (wellFormed ? fact.shape : { type: 'money' }) as FactDef['shape'],
        ...(question
          ? {
              question: {
                id: text(question.id, ''),
                inputKind: text(question.inputKind, 'money') as 'money',
                prompt: text(question.prompt, ''),
                ...(typeof question.helpText === 'string' ? { helpText: question.helpText } : {}),
              },
            }
          : {}),
        ...(fact.example !== undefined && wellFormed ? { example: fact.example } : {}),
        wellFormed,
        at: factsRead.parsed.locate(['facts', index]),
      });
    });
  }

  for (const { folder, kind } of FOLDERS) {
    const folderPath = join(dir, folder);
    if (!existsSync(folderPath)) continue;
    const files = readdirSync(folderPath)
      .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
      .sort();
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
        if (valid && typeof value.formula === 'string') {
          const read = readFormula(rule, value.formula, parsed, pack);
          diagnostics.push(...read.diagnostics);
          pack.rules.push(read.rule);
        } else {
          pack.rules.push(rule);
        }
      }
      if (kind === 'calculator') pack.calculators.push(buildCalculator(value, at, locate, valid));
      if (kind === 'examples') {
        asArray(value.examples).forEach((entry, index) => {
          const example = asRecord(entry);
          pack.examples.push({
            name: text(example.name, `example ${index + 1}`),
            calculator: text(example.calculator, ''),
            facts: asRecord(example.facts),
            expect: asRecord(example.expect),
            source: text(example.source, ''),
            ...(typeof example.note === 'string' ? { note: example.note } : {}),
            at: parsed.locate(['examples', index]),
          } satisfies ExampleDef);
        });
      }
      const stem = name.replace(/\.ya?ml$/, '');
      if (kind !== 'examples' && typeof value.id === 'string' && stem !== value.id) {
        diagnostics.push({ kind: 'schema', message: `the file name should match the ${kind}'s id: \`${value.id}.yaml\``, location: parsed.locate(['id']) });
      }
    }
  }
  return { pack, diagnostics, unreadable, fileCount };
}

function buildParameter(value: Record<string, unknown>, at: SourceLocation, parsed: ParsedYaml, wellFormed: boolean): ParameterDef {
  const table = value.table === undefined ? undefined : asRecord(value.table);
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    unit: text(value.unit, 'ratio') as ParameterDef['unit'],
    ...(table
      ? {
          table: {
            bound: text(table.bound, 'below') as 'below',
            boundUnit: table.boundUnit === 'cents' ? 'cents' : 'dollars',
            columns: asRecord(table.columns) as Record<string, 'ratio'>,
          },
        }
      : {}),
    values: asArray(value.values).map((entry, index) => {
      const item = asRecord(entry);
      const period = asRecord(item.effectivePeriod);
      return {
        effectivePeriod: { from: text(period.from, ''), toExclusive: typeof period.toExclusive === 'string' ? period.toExclusive : null },
        source: text(item.source, ''),
        ...(item.value !== undefined ? { value: item.value as number } : {}),
        ...(Array.isArray(item.rows) ? { rows: item.rows.map(asRecord) as Record<string, number>[] } : {}),
        at: parsed.locate(['values', index]),
        sourceAt: parsed.locate(['values', index, 'source']),
      };
    }),
    wellFormed,
    at,
    valuesAt: parsed.locate(['values']),
  };
}

function buildRule(value: Record<string, unknown>, at: SourceLocation, locate: (path: (string | number)[]) => SourceLocation, wellFormed: boolean): RuleDef {
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    requires: strings(value.requires),
    provides: strings(value.provides),
    parameters: strings(value.parameters),
    sources: strings(value.sources),
    sourcePolicy: value.sourcePolicy === 'not-required' ? 'not-required' : 'required',
    ...(typeof value.allowDuplicateProvides === 'boolean' ? { allowDuplicateProvides: value.allowDuplicateProvides } : {}),
    rounding: text(value.rounding, 'none'),
    ...(value.expression !== undefined ? { expression: value.expression } : {}),
    ...(Array.isArray(value.ledger)
      ? {
          ledger: value.ledger.map((entry) => {
            const component = asRecord(entry);
            return {
              id: text(component.id, ''),
              label: text(component.label, ''),
              fact: text(component.fact, ''),
              effect: text(component.effect, 'additive') as 'additive',
              whenZero: component.whenZero === 'zeroed' ? 'zeroed' : 'active',
            };
          }),
        }
      : {}),
    explanation: text(value.explanation, ''),
    wellFormed,
    at,
    locate,
  };
}

function buildCalculator(value: Record<string, unknown>, at: SourceLocation, locate: (path: (string | number)[]) => SourceLocation, wellFormed: boolean): CalculatorDef {
  return {
    id: text(value.id, ''),
    title: text(value.title, ''),
    description: text(value.description, ''),
    inputFacts: strings(value.inputFacts),
    outputFacts: strings(value.outputFacts),
    factsSchemaName: text(value.factsSchemaName, 'Facts'),
    reportSchemaName: text(value.reportSchemaName, 'Report'),
    supportedHelpModes: strings(value.supportedHelpModes) as CalculatorDef['supportedHelpModes'],
    ...(typeof value.catalogOrder === 'number' ? { catalogOrder: value.catalogOrder } : {}),
    // A template that broke the schema is not read: its facts and fields cannot be trusted.
    report: (wellFormed ? value.report : { tag: 'Report', fields: {} }) as CalculatorDef['report'],
    wellFormed,
    at,
    locate,
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
