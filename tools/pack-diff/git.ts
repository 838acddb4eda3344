import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** A pack folder written out as it was at a revision, or why it could not be. */
export type Exported = { ok: true; dir: string; commit: string } | { ok: false; problem: string };

/**
 * Writes the files of `path` as they were at `rev` into `into`, under the same two last folder names
 * (a pack's id and version must match its folders), with `git cat-file` so no filter rewrites them.
 */
export function exportRevision(path: string, rev: string, into: string): Exported {
  const absolute = resolve(path);
  let anchor = absolute;
  // The folder may not exist on disk any more (or yet): git is asked from its nearest existing parent.
  while (!existsSync(anchor) && dirname(anchor) !== anchor) anchor = dirname(anchor);
  const git = (args: string[]) => execFileSync('git', args, { cwd: anchor, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const top = git(['rev-parse', '--show-toplevel']).toString().trim();
    const inRepo = relative(realpathSync(top), join(realpathSync(anchor), relative(anchor, absolute))).split('\\').join('/');
    let commit: string;
    try {
      commit = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]).toString().trim();
    } catch {
      return { ok: false, problem: `\`${rev}\` is not a revision of the git repository at ${top}` };
    }
    const files = git(['-C', top, 'ls-tree', '-r', '-z', '--name-only', commit, '--', inRepo]).toString().split('\0').filter(Boolean);
    if (files.length === 0) return { ok: false, problem: `\`${path}\` does not exist at revision ${rev}` };
    const dir = join(into, basename(dirname(absolute)), basename(absolute));
    for (const file of files) {
      const target = join(dir, relative(inRepo, file));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, git(['-C', top, 'cat-file', 'blob', `${commit}:${file}`]));
    }
    return { ok: true, dir, commit: commit.slice(0, 12) };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { ok: false, problem: `git could not read \`${path}\` at ${rev}${stderr ? `: ${stderr}` : ''}` };
  }
}
