import { spawnSync } from 'node:child_process';

/**
 * Re-runs this script pinned to one CPU with `taskset` when it is there (Linux), so that the
 * figures are for one core: V8's compiler and GC helper threads then share that core too.
 * Returns the pinning in effect when the caller should go on, and exits with the child's status
 * when it ran the child. Set BENCH_NO_PIN=1 to run unpinned.
 */
export function pinToOneCore(cpu = 0): string {
  if (process.env.BENCH_PINNED) return `cpu ${process.env.BENCH_PINNED} (taskset)`;
  if (process.env.BENCH_NO_PIN === '1') return 'not pinned (BENCH_NO_PIN=1)';
  const probe = spawnSync('taskset', ['-c', String(cpu), 'true'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return 'not pinned (no taskset)';
  const child = spawnSync('taskset', ['-c', String(cpu), process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: String(cpu) },
  });
  process.exit(child.status ?? 1);
}
