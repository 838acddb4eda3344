import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of the times in /proc/<pid>/stat. */
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU time (user and system, every thread) used so far by a process and all its descendants, in
 * seconds, read from /proc; undefined where there is no /proc (not Linux). On a machine shared with
 * other work, throughput per CPU second says what a core gives when it is not taken by others.
 */
export function processTreeCpuSeconds(pid: number): number | undefined {
  try {
    return treeTicks(pid) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function treeTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]);
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim();
    for (const child of children === '' ? [] : children.split(' ')) {
      try {
        ticks += treeTicks(Number(child));
      } catch {
        // A child that exited meanwhile has no /proc entry left to read.
      }
    }
  }
  return ticks;
}
