import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { carriedValues, loadPacks, runExamples, type Diagnostic, type Notice, type PackReport } from '../../engine/index.ts';
import { displayPath, isWithin } from '../lib/paths.ts';
import { buildsStoredYaml } from '../lib/stored-yaml.ts';

/** One figure an example expected and what came out instead. */
export interface Mismatch {
  fact: string;
  expected: unknown;
  actual: unknown;
}

/** How one worked example fared. */
export interface ExampleOutcome {
  name: string;
  calculator: string;
  passed: boolean;
  file: string;
  line: number;
  column: number;
  mismatches: Mismatch[];
  error?: string;
}

/** Everything validate-pack reports about one pack; paths are relative to the current folder. */
export interface PackOutcome {
  id: string;
  version: string;
  dir: string;
  counts: { files: number; sources: number; facts: number; parameters: number; rules: number; calculators: number; examples: number; examplesPassed: number };
  diagnostics: Diagnostic[];
  /** Values carried unchanged from the previous pack of the family and not confirmed: to review, not failures. */
  notices: Notice[];
  /** The pack the carried values come from, `id/version (year)`, when there is one. */
  carriedFrom?: string;
  /** False when the pack had diagnostics, so its examples were not run. */
  examplesRun: boolean;
  examples: ExampleOutcome[];
  unreadable: string[];
  /** Ids of the pack's money facts, whose figures are shown in dollars too. */
  moneyFacts: ReadonlySet<string>;
}

/** The packs the paths hold, or the paths that make it a usage error. */
export type Selection =
  | { ok: true; reports: PackReport[] }
  | { ok: false; missing: string[]; empty: string[] };

/** The outcome of a run, or the paths that make it a usage error. */
export type CheckOutcome =
  | { ok: true; packs: PackOutcome[] }
  | { ok: false; missing: string[]; empty: string[] };

/** Loads, checks and plans every pack at or under the paths. */
export function selectPacks(paths: readonly string[]): Selection {
  const loaded = loadPacks(paths, { storedYaml: storedYaml() });
  // A path that holds no pack is as likely a typo as a missing one, so both are usage errors.
  const empty = paths.filter((path) => !loaded.missing.includes(path) && !loaded.packs.some((report) => isWithin(report.pack.dir, resolve(path))));
  if (loaded.missing.length > 0 || empty.length > 0) return { ok: false, missing: loaded.missing, empty };
  return { ok: true, reports: loaded.packs };
}

/** Why a selection failed, one line per path. */
export function selectionProblems(selection: { missing: string[]; empty: string[] }): string[] {
  return [
    ...selection.missing.map((path) => (existsSync(path) ? `\`${path}\` is not a folder` : `\`${path}\` does not exist`)),
    ...selection.empty.map((path) => `no pack (a folder with pack.yaml) in \`${path}\``),
  ];
}

let stored: ReturnType<typeof buildsStoredYaml> | null = null;
/** The build's stored parses, read once per process (the previous packs are read through them too). */
function storedYaml(): ReturnType<typeof buildsStoredYaml> {
  if (stored === null) stored = buildsStoredYaml();
  return stored;
}

/** Loads every pack at or under the paths, runs the examples of the clean ones and gathers what to report. */
export function checkPacks(paths: readonly string[]): CheckOutcome {
  const selection = selectPacks(paths);
  return selection.ok ? { ok: true, packs: selection.reports.map(outcomeOf) } : selection;
}

/** True when the outcome has nothing to complain about. */
export function isClean(pack: PackOutcome): boolean {
  return pack.diagnostics.length === 0 && pack.unreadable.length === 0 && pack.examples.every((example) => example.passed);
}

function outcomeOf(report: PackReport): PackOutcome {
  const { pack } = report;
  const examplesRun = report.diagnostics.length === 0;
  const examples = examplesRun
    ? runExamples(pack.examples, report.plans).map(
        (result): ExampleOutcome => ({
          name: result.example.name,
          calculator: result.example.calculator,
          passed: result.passed,
          file: displayPath(result.example.at.file),
          line: result.example.at.line,
          column: result.example.at.column,
          mismatches: result.mismatches.map(({ factId, expected, actual }) => ({ fact: factId, expected, actual })),
          ...(result.error !== undefined ? { error: result.error } : {}),
        }),
      )
    : [];
  const carried = carriedValues(pack, { storedYaml: storedYaml() });
  const located = <T extends { location: Diagnostic['location'] }>(item: T): T => ({ ...item, location: { ...item.location, file: displayPath(item.location.file) } });
  return {
    id: pack.id,
    version: pack.version,
    dir: displayPath(pack.dir),
    counts: {
      files: report.fileCount,
      sources: pack.sources.length,
      facts: pack.facts.length,
      parameters: pack.parameters.length,
      rules: pack.rules.length,
      calculators: pack.calculators.length,
      examples: pack.examples.length,
      examplesPassed: examples.filter((example) => example.passed).length,
    },
    diagnostics: report.diagnostics.map(located),
    notices: carried.notices.map(located),
    ...(carried.previous ? { carriedFrom: `${carried.previous.id}/${carried.previous.version} (${carried.previous.taxYear})` } : {}),
    examplesRun,
    examples,
    unreadable: report.unreadable.map(displayPath),
    moneyFacts: new Set(pack.facts.filter((fact) => fact.shape.type === 'money').map((fact) => fact.id)),
  };
}
