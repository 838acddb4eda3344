import { findSourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The parts of a V8 .cpuprofile (as written by --cpu-prof or the inspector) the summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileEntry {
  name: string;
  where: string;
  selfMs: number;
  selfPct: number;
  totalMs: number;
  totalPct: number;
}

export interface ProfileSummary {
  /** Sampled time, idle excluded. */
  busyMs: number;
  idleMs: number;
  gcMs: number;
  /** Functions by self time. */
  self: ProfileEntry[];
  /** Functions by inclusive time (time with the function anywhere on the stack). */
  inclusive: ProfileEntry[];
  /** Self time by module: a project file, a package, node internals or the VM. */
  modules: { module: string; selfMs: number; selfPct: number }[];
}

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a frame's code lives, in short: `engine/run/evaluate.ts:123`, `koa`, `node:internal/...`. */
function moduleOf(url: string): string {
  if (url === '') return '(vm/native)';
  if (url.startsWith('node:')) return url.startsWith('node:internal') ? 'node:internal' : url;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const packageAt = path.lastIndexOf('node_modules/');
  if (packageAt >= 0) {
    const rest = path.slice(packageAt + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  return path.startsWith(PROJECT_ROOT) ? path.slice(PROJECT_ROOT.length) : path;
}

/**
 * Maps a generated position (tsx compiles each TypeScript module to one line) back to its source
 * line, through the source maps of modules loaded in this process.
 */
export type Locate = (url: string, line: number, column: number) => number | undefined;

export const locateLoaded: Locate = (url, line, column) => {
  if (!url.startsWith('file://') || !/\.(ts|tsx|mts)$/.test(url)) return undefined;
  const entry = findSourceMap(url)?.findEntry(line, column) as { originalLine?: number } | undefined;
  return entry && typeof entry.originalLine === 'number' ? entry.originalLine : undefined;
};

/** Project modules a profile names that are safe to import (no entry points), so their maps are known. */
const ENTRY_POINTS = /(^|\/)(server\/main\.ts|server\/calculation\/worker\.ts|bench\/[^/]+\.ts)$/;

/** Imports the project's TypeScript modules a profile names, so that `locateLoaded` can map them. */
export async function loadSourceMapsFor(profile: CpuProfile): Promise<void> {
  const urls = new Set(profile.nodes.map((node) => node.callFrame.url).filter((url) => url.startsWith(pathToFileURL(PROJECT_ROOT).href) && /\.ts$/.test(url)));
  for (const url of urls) {
    if (findSourceMap(url) || ENTRY_POINTS.test(fileURLToPath(url)) || url.includes('/node_modules/')) continue;
    try {
      await import(url);
    } catch {
      // Left unmapped: shown with its generated column.
    }
  }
}

function whereOf(url: string, line: number, column: number, locate: Locate): string {
  const module = moduleOf(url);
  if (url === '') return module;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const file = path.startsWith(PROJECT_ROOT) ? path.slice(PROJECT_ROOT.length) : module === path ? path : `${module}/${path.split('/').pop()}`;
  const original = locate(url, line, column);
  if (original !== undefined) return `${file}:${original + 1}`;
  return line === 0 && /\.ts$/.test(path) ? `${file}:col ${column + 1}` : `${file}:${line + 1}`;
}

/** Self and inclusive time per function, and self time per module, from one profile. */
/**
 * `window` keeps only samples taken between two CLOCK_MONOTONIC times in microseconds (V8 profile
 * timestamps and `process.hrtime` share that clock, so another process can say when it measured).
 */
export function summarizeProfile(profile: CpuProfile, top = 25, locate: Locate = locateLoaded, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'}\u0000${whereOf(frame.url, frame.lineNumber, frame.columnNumber, locate)}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const modules = new Map<string, number>();
  let idle = 0;
  let gc = 0;
  let busy = 0;
  let clock = profile.startTime;
  profile.samples.forEach((id, index) => {
    clock += profile.timeDeltas[index] ?? 0;
    if (window && (clock < window.fromUs || clock > window.toUs)) return;
    // timeDeltas[i] is the time before sample i; the sample stands for the interval up to the next.
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    busy += ms;
    if (frame.functionName === '(garbage collector)') gc += ms;
    const key = keyOf(id);
    self.set(key, (self.get(key) ?? 0) + ms);
    const module = frame.url === '' && frame.functionName.startsWith('(') ? frame.functionName : moduleOf(frame.url);
    modules.set(module, (modules.get(module) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (name === '(root)') break;
      const stackKey = keyOf(at);
      if (!seen.has(stackKey)) {
        seen.add(stackKey);
        inclusive.set(stackKey, (inclusive.get(stackKey) ?? 0) + ms);
      }
    }
  });
  const entry = (key: string): ProfileEntry => {
    const [name, where] = key.split('\u0000') as [string, string];
    const selfMs = self.get(key) ?? 0;
    const totalMs = inclusive.get(key) ?? 0;
    return { name, where, selfMs, selfPct: (100 * selfMs) / busy, totalMs, totalPct: (100 * totalMs) / busy };
  };
  const ranked = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([key]) => entry(key));
  return {
    busyMs: busy,
    idleMs: idle,
    gcMs: gc,
    self: ranked(self),
    inclusive: ranked(inclusive),
    modules: [...modules.entries()].sort((a, b) => b[1] - a[1]).slice(0, top).map(([module, ms]) => ({ module, selfMs: ms, selfPct: (100 * ms) / busy })),
  };
}

/** The summary as text tables. */
export function formatSummary(title: string, summary: ProfileSummary, rows = 20): string {
  const lines = [`${title}: ${summary.busyMs.toFixed(0)} ms busy (GC ${summary.gcMs.toFixed(0)} ms = ${((100 * summary.gcMs) / summary.busyMs).toFixed(1)}%), ${summary.idleMs.toFixed(0)} ms idle`];
  const fn = (entry: ProfileEntry) => `${entry.name} (${entry.where})`;
  lines.push('', '  self %  total %  function (where)');
  for (const entry of summary.self.slice(0, rows)) lines.push(`  ${entry.selfPct.toFixed(1).padStart(6)}  ${entry.totalPct.toFixed(1).padStart(7)}  ${fn(entry)}`);
  lines.push('', '  total %  self %  function, by inclusive time');
  for (const entry of summary.inclusive.slice(0, rows)) lines.push(`  ${entry.totalPct.toFixed(1).padStart(7)}  ${entry.selfPct.toFixed(1).padStart(6)}  ${fn(entry)}`);
  lines.push('', '  self %  module');
  for (const module of summary.modules.slice(0, Math.min(rows, 15))) lines.push(`  ${module.selfPct.toFixed(1).padStart(6)}  ${module.module}`);
  return lines.join('\n');
}
