import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadPacks, type PackReport } from '../../engine/index.ts';
import { displayPath } from '../lib/paths.ts';
import type { Comparison } from './args.ts';
import { exportRevision } from './git.ts';
import { buildsStoredYaml } from '../lib/stored-yaml.ts';

/** One version of a pack, loaded, with how a reviewer should name it. */
export interface Side {
  label: string;
  report: PackReport;
}

/** Both versions, or the problems that stop the comparison (exit code 2). */
export type Sides = { ok: true; old: Side; new: Side } | { ok: false; problems: string[] };

/** Loads both sides of a comparison; git revisions are written to a temporary folder that is removed before returning. */
export function loadSides(comparison: Comparison): Sides {
  if (comparison.kind === 'folders') return both(loadSide(comparison.old, displayPath(resolve(comparison.old))), loadSide(comparison.new, displayPath(resolve(comparison.new))));
  const temp = mkdtempSync(join(tmpdir(), 'pack-diff-'));
  try {
    const where = displayPath(resolve(comparison.path));
    const atRevision = (rev: string, folder: string): Loaded => {
      const exported = exportRevision(comparison.path, rev, join(temp, folder));
      return exported.ok ? loadSide(exported.dir, `${where} at ${rev}, commit ${exported.commit}`) : { ok: false, problems: [exported.problem] };
    };
    const old = atRevision(comparison.old, 'old');
    const now = comparison.new === null ? loadSide(comparison.path, `${where} on disk`) : atRevision(comparison.new, 'new');
    return both(old, now);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

type Loaded = { ok: true; side: Side } | { ok: false; problems: string[] };

function both(old: Loaded, now: Loaded): Sides {
  if (old.ok && now.ok) return { ok: true, old: old.side, new: now.side };
  return { ok: false, problems: [...(old.ok ? [] : old.problems), ...(now.ok ? [] : now.problems)] };
}

/** Exactly one pack, at the folder itself, without diagnostics: a diff of a pack that does not load would mislead. */
function loadSide(dir: string, label: string): Loaded {
  const loaded = loadPacks([dir], { storedYaml: buildsStoredYaml() });
  if (loaded.missing.length > 0) return { ok: false, problems: [`\`${dir}\` is not a folder`] };
  const report = loaded.packs.find((candidate) => candidate.pack.dir === resolve(dir));
  if (!report) return { ok: false, problems: [`\`${dir}\` is not a pack folder (one holding pack.yaml)`] };
  if (report.diagnostics.length > 0) {
    return { ok: false, problems: [`${label} has ${report.diagnostics.length} diagnostic(s); run validate-pack on it first`, ...report.diagnostics.map((diagnostic) => `  ${diagnostic.location.file}:${diagnostic.location.line}:${diagnostic.location.column} ${diagnostic.kind} ${diagnostic.message}`)] };
  }
  return { ok: true, side: { label: `${report.pack.id}/${report.pack.version} (${label})`, report } };
}
