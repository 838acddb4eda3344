import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './packs.ts';
import { readStartCommand } from './start-command.ts';

/** How to start the service of another revision: node's arguments, its environment defaults and its folder. */
export interface RevisionServer {
  /** The revision as given and its short commit, for the bench's table. */
  label: string;
  nodeArgs: string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * Checks out another git revision of this repository in the bench's folder, so that a bench can
 * measure its service beside today's in one run (`--baseline=<revision>`): the same machine, the
 * same moment, the same load. The checkout uses this one's node_modules, so a revision whose
 * dependencies differ may not start. A revision with a build step is built and started as its own
 * `npm start` starts it; one from before the build runs `server/main.ts` through tsx's loader, as
 * its `npm start` did then. The checkout is removed when the bench exits.
 */
export function checkOutRevision(revision: string, work: string): RevisionServer {
  const resolved = spawnSync('git', ['rev-parse', '--verify', '--short', `${revision}^{commit}`], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (resolved.status !== 0) throw new Error(`--baseline: ${revision} is not a commit of this repository`);
  const commit = resolved.stdout.trim();
  const dir = join(work, `baseline-${commit}`);
  const added = spawnSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`--baseline: git worktree add failed: ${added.stderr.trim()}`);
  process.on('exit', () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: PROJECT_ROOT });
    // Whichever exit handler removed the folder first, git forgets the checkout.
    spawnSync('git', ['worktree', 'prune'], { cwd: PROJECT_ROOT });
  });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'));
  const label = revision === commit ? commit : `${revision} (${commit})`;

  if (!existsSync(join(dir, 'scripts/build.js'))) return { label, nodeArgs: ['--import', 'tsx', join(dir, 'server/main.ts')], env: {}, cwd: dir };
  const built = spawnSync(process.execPath, ['scripts/build.js'], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`--baseline: the build of ${label} failed:\n${built.stderr.slice(-2000)}`);
  const startScript = join(dir, 'scripts/start.sh');
  // Before start.sh, npm start ran the bundle with plain node.
  const start = existsSync(startScript) && readFileSync(startScript, 'utf8').includes('dist/server.js') ? readStartCommand(startScript) : { nodeFlags: [], env: {} };
  return { label, nodeArgs: [...start.nodeFlags, join(dir, 'dist/server.js')], env: start.env, cwd: dir };
}
