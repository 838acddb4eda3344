import { canonical } from '../lib/canonical.ts';

/** One section of the diff: a heading and its change lines (`+` added, `-` removed, `~` changed, detail indented). */
export interface Section {
  title: string;
  lines: string[];
}

/** Items of two lists paired by id: those only in the old list, only in the new one, and in both. */
export function pairById<T extends { id: string }>(old: readonly T[], now: readonly T[]): { removed: T[]; added: T[]; both: [T, T][] } {
  const newById = new Map(now.map((item) => [item.id, item]));
  const oldIds = new Set(old.map((item) => item.id));
  return {
    removed: old.filter((item) => !newById.has(item.id)),
    added: now.filter((item) => !oldIds.has(item.id)),
    both: old.filter((item) => newById.has(item.id)).map((item) => [item, newById.get(item.id)!]),
  };
}

/** `label: old → new` when the two differ (compared as JSON), else nothing. */
export function fieldChange(label: string, old: unknown, now: unknown, show: (value: unknown) => string = text): string[] {
  return same(old, now) ? [] : [`${label}: ${show(old)} → ${show(now)}`];
}

/** `requires: [a, b] → [a, c] (+c, -b)`, naming what came and went. */
export function listChange(label: string, old: readonly string[], now: readonly string[]): string[] {
  if (same(old, now)) return [];
  const added = now.filter((item) => !old.includes(item)).map((item) => `+${item}`);
  const removed = old.filter((item) => !now.includes(item)).map((item) => `-${item}`);
  const detail = [...added, ...removed];
  return [`${label}: [${old.join(', ')}] → [${now.join(', ')}]${detail.length > 0 ? ` (${detail.join(', ')})` : ' (order)'}`];
}

/** Equal in meaning: pack data is plain YAML values, and the order keys are written in carries none. */
export function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}


/** A value as short readable text: strings bare, anything else as JSON, absence as `(none)`. */
export function text(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `<from> to before <until>`, or `from <from>` when the period has no end. */
export function period(value: { from: string; toExclusive: string | null }): string {
  return value.toExclusive === null ? `from ${value.from}` : `${value.from} to before ${value.toExclusive}`;
}
