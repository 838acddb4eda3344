import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describeChanges, describeState, stateOf, type RunState } from './changes.ts';
import { checkPacks, selectionProblems, type PackOutcome } from './check.ts';
import { formatReport } from './report.ts';

/** How long to wait after the last file event before checking: an editor's save is often several events. */
export const DEBOUNCE_MS = 100;

/**
 * Prints the full report of the first check, then re-checks after every change under the paths and
 * prints only what changed, until SIGINT or SIGTERM; resolves to exit code 0 when stopped.
 */
export function watchPacks(paths: readonly string[], first: readonly PackOutcome[], write: (text: string) => void): Promise<number> {
  write(formatReport(first));
  let state: RunState = stateOf(first);
  write(`${describeState(state)}\n`);

  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const recheck = () => {
    timer = undefined;
    // Editors and tools write temporary files next to the real ones; name only the pack files.
    const files = [...changed].filter((file) => /\.ya?ml$/.test(file)).sort();
    changed.clear();
    const when = new Date().toTimeString().slice(0, 8);
    write(`\n[${when}] re-checked after ${files.length > 0 ? `changes to ${files.join(', ')}` : 'a change'}\n`);
    let outcome: ReturnType<typeof checkPacks>;
    try {
      outcome = checkPacks(paths);
    } catch (error) {
      // A half-written file must not end the session: report the failure and wait for the next save.
      write(`  the check failed: ${error instanceof Error ? error.message : String(error)}\n`);
      return;
    }
    if (!outcome.ok) {
      // A pack folder can vanish for a moment during a move or checkout: say so and keep watching.
      for (const problem of selectionProblems(outcome)) write(`  ${problem}\n`);
      return;
    }
    const next = stateOf(outcome.packs, state);
    const lines = describeChanges(state, next);
    write(lines.length === 0 ? '  no change\n' : `${lines.map((line) => (line.startsWith(' ') ? line : `  ${line}`)).join('\n')}\n`);
    write(`  ${describeState(next)}\n`);
    state = next;
  };

  // Each folder is watched on its own, not one recursive watch: a folder's watch reports its
  // entries by name, so a file saved by writing a new file and renaming it over the old one (as many
  // editors and `sed -i` do) is still seen, which a watch on the old file itself would miss.
  const watchers = new Map<string, FSWatcher>();
  const watchFolders = () => {
    for (const path of paths) {
      for (const folder of foldersUnder(resolve(path))) {
        if (watchers.has(folder)) continue;
        const watcher = watch(folder, (_event, filename) => {
          changed.add(filename ? relative(process.cwd(), resolve(folder, filename.toString())) : path);
          clearTimeout(timer);
          timer = setTimeout(() => {
            watchFolders(); // a new folder (say, examples/) is watched from now on
            recheck();
          }, DEBOUNCE_MS);
        });
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder); // the folder went away; it is watched again if it comes back
        });
        watchers.set(folder, watcher);
      }
    }
  };
  watchFolders();
  write(`watching ${paths.map((path) => relative(process.cwd(), resolve(path)) || '.').join(', ')} for changes (Ctrl-C to stop)\n`);

  return new Promise((done) => {
    const stop = () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      write('stopped watching\n');
      done(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** A folder and every folder under it (hidden folders and node_modules aside). */
function foldersUnder(root: string): string[] {
  const found = [root];
  try {
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') found.push(...foldersUnder(join(root, entry.name)));
    }
  } catch {
    // A folder that vanished while we looked is simply not watched.
  }
  return found;
}
