import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import type { CliBin } from '../docs-site/cli-blocks.ts';

/** What a finished tool process left: its exit code, and everything it wrote. */
export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

// Each tool start costs a node process and tsx: run a few at a time, so a test file can start all its
// runs at once and the whole set finishes in a few seconds without flooding the machine.
const LIMIT = Math.max(2, Math.min(6, availableParallelism() - 1));
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= LIMIT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Runs a tool as reviewers do: `node bin/<tool>.js args...`, from `cwd` (default the project root),
 * with optional standard input; killed after 20 s so a hung tool fails its test rather than the run.
 */
export function cli(tool: CliBin, args: readonly string[], options: { cwd?: string; input?: string } = {}): Promise<Ran> {
  return slot(
    () =>
      new Promise<Ran>((resolve, reject) => {
        const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', `${tool}.js`), ...args], { cwd: options.cwd ?? PROJECT_ROOT, timeout: 20_000 });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stdout, stderr }));
        child.stdin.end(options.input ?? '');
      }),
  );
}

/**
 * Named runs started together when a suite starts (pass `start` to `test.before`), not when its file
 * is loaded: uvu loads every test file before running any, and runs started then would compete with
 * other suites' timing-sensitive tests.
 */
export function suiteRuns<T extends Record<string, () => Promise<unknown>>>(specs: T): { start: () => void; get: <K extends keyof T>(name: K) => ReturnType<T[K]> } {
  const started = new Map<keyof T, Promise<unknown>>();
  const get = <K extends keyof T>(name: K): ReturnType<T[K]> => {
    if (!started.has(name)) started.set(name, specs[name]!());
    return started.get(name) as ReturnType<T[K]>;
  };
  return { start: () => Object.keys(specs).forEach((name) => get(name)), get };
}
