import { computeFacts, type PackReport } from '../../engine/index.ts';
import { dollars, signedCents } from '../lib/money.ts';
import { isMoney, renderValue } from '../lib/values.ts';
import { canonical } from '../lib/canonical.ts';
import type { Section } from './compare.ts';

/** One distinct example case (a calculator and its facts), wherever it was written. */
interface Case {
  calculator: string;
  facts: Record<string, unknown>;
  names: Set<string>;
  from: Set<'old' | 'new'>;
}

/** What a case came to on one side: every derived fact by id, or why it could not run. */
type Run = { ok: true; facts: Map<string, unknown> } | { ok: false; error: string };

/**
 * Runs the examples of both versions through both versions and lists each case whose derived
 * figures moved, by how much; a case written in both versions (same calculator and facts) runs once.
 */
export function resultSection(old: PackReport, now: PackReport): Section & { unchanged: number } {
  const cases = new Map<string, Case>();
  for (const [side, report] of [['old', old], ['new', now]] as const) {
    for (const example of report.pack.examples) {
      const key = `${example.calculator}|${canonical(example.facts)}`;
      const entry = cases.get(key) ?? { calculator: example.calculator, facts: example.facts, names: new Set(), from: new Set() };
      entry.names.add(example.name);
      entry.from.add(side);
      cases.set(key, entry);
    }
  }
  const lines: string[] = [];
  let unchanged = 0;
  for (const entry of cases.values()) {
    const before = run(old, entry);
    const after = run(now, entry);
    const detail = before.ok && after.ok ? moved(before.facts, after.facts, new Set(Object.keys(entry.facts))) : failures(before, after);
    if (detail.length === 0) {
      unchanged++;
      continue;
    }
    const written = entry.from.size === 2 ? 'old and new' : `${[...entry.from][0]} only`;
    lines.push(`~ ${[...entry.names].join(' / ')} (${entry.calculator}; example of ${written})`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Example results (the examples of both versions, run through both)', lines, unchanged };
}

function run(report: PackReport, entry: Case): Run {
  const plan = report.plans.find((candidate) => candidate.def.id === entry.calculator);
  if (!plan) return { ok: false, error: `calculator \`${entry.calculator}\` is not in this version` };
  const outcome = computeFacts(plan, entry.facts);
  if (outcome.ok) return outcome;
  return { ok: false, error: outcome.failure === 'decode' ? 'the facts do not decode' : outcome.failure === 'calculation' ? outcome.message : 'the calculation timed out' };
}

/** `paygWithholding  $353.00 → $328.00  -2500 (-$25.00)` for each derived figure that differs. */
function moved(before: Map<string, unknown>, after: Map<string, unknown>, inputs: ReadonlySet<string>): string[] {
  const ids = [...new Set([...before.keys(), ...after.keys()])].filter((id) => !inputs.has(id));
  const rows = ids.flatMap((id): [string, string][] => {
    const a = before.get(id);
    const b = after.get(id);
    if (canonical(a) === canonical(b)) return [];
    if (isMoney(a) && isMoney(b)) return [[id, `${dollars(a.cents)} → ${dollars(b.cents)}  ${signedCents(b.cents - a.cents)}`]];
    return [[id, `${a === undefined ? '(not computed)' : renderValue(a)} → ${b === undefined ? '(not computed)' : renderValue(b)}`]];
  });
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  return rows.map(([id, change]) => `${id.padEnd(width)}  ${change}`);
}

function failures(before: Run, after: Run): string[] {
  if (!before.ok && !after.ok && before.error === after.error) return [];
  return [before.ok ? 'old: ran' : `old: could not run: ${before.error}`, after.ok ? 'new: ran' : `new: could not run: ${after.error}`];
}
