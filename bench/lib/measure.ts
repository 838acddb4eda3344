import { performance } from 'node:perf_hooks';

/** Keeps results alive so that no measured work can be optimised away. */
let sink = 0;
export function consumed(): number {
  return sink;
}

/** Runs `run(i)` for i = 0, 1, ... in batches until `ms` have passed; returns operations per second. */
export function measureFor(run: (index: number) => number, ms: number, batch = 128): { opsPerSec: number; iterations: number; elapsedMs: number } {
  let iterations = 0;
  let local = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (let k = 0; k < batch; k++) local += run(iterations++);
    elapsed = performance.now() - start;
  } while (elapsed < ms);
  sink += local;
  return { opsPerSec: (iterations * 1000) / elapsed, iterations, elapsedMs: elapsed };
}

/** Runs `run(i)` exactly `count` times; returns the sum of its results. */
export function runTimes(run: (index: number) => number, count: number): number {
  let local = 0;
  for (let index = 0; index < count; index++) local += run(index);
  sink += local;
  return local;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
