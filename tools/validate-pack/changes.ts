import { formatDiagnostic, type Diagnostic, type Notice } from '../../engine/index.ts';
import { plural } from '../lib/text.ts';
import type { ExampleOutcome, PackOutcome } from './check.ts';
import { exampleLines } from './report.ts';

/** What one run found about one pack, remembered until the next run. */
interface PackState {
  label: string;
  diagnostics: Diagnostic[];
  notices: Notice[];
  examplesRun: boolean;
  /** The examples as last run; kept while diagnostics stop them running, so a fix is compared with the last real run. */
  examples: ReadonlyMap<string, ExampleOutcome>;
  moneyFacts: ReadonlySet<string>;
}

/** What a run found, by pack folder. */
export type RunState = ReadonlyMap<string, PackState>;

/** The state of a run, carrying forward the examples of packs whose examples did not run this time. */
export function stateOf(packs: readonly PackOutcome[], previous: RunState = new Map()): RunState {
  return new Map(
    packs.map((pack) => [
      pack.dir,
      {
        label: `${pack.id}/${pack.version}`,
        diagnostics: pack.diagnostics,
        notices: pack.notices,
        examplesRun: pack.examplesRun,
        examples: pack.examplesRun ? new Map(pack.examples.map((example) => [exampleKey(example), example])) : (previous.get(pack.dir)?.examples ?? new Map()),
        moneyFacts: pack.moneyFacts,
      },
    ]),
  );
}

/**
 * What changed between two runs, one line each: diagnostics that appeared or went, examples that
 * started or stopped failing (or fail differently), packs that appeared or went. A diagnostic is the
 * same one when its kind, file and message are, so one that only moved lines is not reported.
 */
export function describeChanges(previous: RunState, current: RunState): string[] {
  const lines: string[] = [];
  for (const [dir, before] of previous) if (!current.has(dir)) lines.push(`- pack ${before.label} (${dir}) is gone`);
  for (const [dir, now] of current) {
    const before = previous.get(dir);
    if (!before) lines.push(`+ pack ${now.label} (${dir}) appeared`);
    const old = before?.diagnostics ?? [];
    for (const diagnostic of unmatched(old, now.diagnostics)) lines.push(`- fixed: ${formatDiagnostic(diagnostic)}`);
    for (const diagnostic of unmatched(now.diagnostics, old)) lines.push(`+ new: ${formatDiagnostic(diagnostic)}`);
    const oldNotices = before?.notices ?? [];
    for (const notice of unmatched(oldNotices, now.notices)) lines.push(`- no longer noticed: ${formatDiagnostic(notice)}`);
    for (const notice of unmatched(now.notices, oldNotices)) lines.push(`+ notice: ${formatDiagnostic(notice)}`);
    if (before?.examplesRun !== false && !now.examplesRun && now.examples.size > 0) lines.push(`  examples of ${now.label} not run until its diagnostics are fixed`);
    if (now.examplesRun) lines.push(...exampleChanges(before?.examples ?? new Map(), now));
  }
  return lines;
}

/** `now: 1 diagnostic, 2 failing examples` (and the notices, when there are some), after every run. */
export function describeState(state: RunState): string {
  const packs = [...state.values()];
  const diagnostics = packs.reduce((sum, pack) => sum + pack.diagnostics.length, 0);
  const failing = packs.filter((pack) => pack.examplesRun).reduce((sum, pack) => sum + [...pack.examples.values()].filter((example) => !example.passed).length, 0);
  const notRun = packs.filter((pack) => !pack.examplesRun).length;
  const notices = packs.reduce((sum, pack) => sum + pack.notices.length, 0);
  return `now: ${plural(diagnostics, 'diagnostic')}, ${plural(failing, 'failing example')}${notRun > 0 ? ` (examples of ${plural(notRun, 'pack')} not run)` : ''}${notices > 0 ? `, ${plural(notices, 'notice')}` : ''}`;
}

function exampleChanges(before: ReadonlyMap<string, ExampleOutcome>, now: PackState): string[] {
  const lines: string[] = [];
  for (const [key, example] of now.examples) {
    const old = before.get(key);
    const [head, ...figures] = exampleLines(example, now.moneyFacts);
    if (example.passed) {
      if (old && !old.passed) lines.push(`- now passes: ${example.file}:${example.line}:${example.column} example \`${example.name}\` (${example.calculator})`);
    } else if (!old || old.passed) lines.push(`+ now fails: ${head}`, ...figures);
    else if (failure(old) !== failure(example)) lines.push(`~ fails differently: ${head}`, ...figures);
  }
  for (const [key, old] of before) {
    if (!now.examples.has(key) && !old.passed) lines.push(`- failing example removed: ${old.file} example \`${old.name}\` (${old.calculator})`);
  }
  return lines;
}

/** Items of `list` with no counterpart left in `others`, counting duplicates. */
function unmatched<T extends Diagnostic | Notice>(list: readonly T[], others: readonly T[]): T[] {
  const pool = others.map(diagnosticKey);
  return list.filter((diagnostic) => {
    const index = pool.indexOf(diagnosticKey(diagnostic));
    if (index === -1) return true;
    pool.splice(index, 1);
    return false;
  });
}

function diagnosticKey(diagnostic: Diagnostic | Notice): string {
  return `${diagnostic.kind}|${diagnostic.location.file}|${diagnostic.message}`;
}

function exampleKey(example: ExampleOutcome): string {
  return `${example.file}|${example.calculator}|${example.name}`;
}

function failure(example: ExampleOutcome): string {
  return JSON.stringify([example.error, example.mismatches]);
}
