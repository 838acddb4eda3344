import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadServerMemory } from './load-server.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
const WRAPPER = fileURLToPath(new URL('./load-server.ts', import.meta.url));

/** Server memory after a forced collection, in bytes. */
export interface MemoryReading {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  /** Event-loop delay of the server since the previous reading, in ms. */
  loopDelay: { p99: number; max: number };
}

/** The service running as its own process, as the load bench sees it. */
export interface RunningService {
  url: string;
  /** The service's process; with worker processes, their primary. */
  pid: number;
  /** Request log lines the service printed, one per answered request: a cross-check on the client's count. */
  logLines(): number;
  memory(): Promise<MemoryReading>;
  /** Stops the service the way an operator would (SIGTERM) and resolves with its exit code. */
  stop(): Promise<number | null>;
  stderr(): string;
}

/**
 * Starts the service through `load-server.ts` under `--expose-gc`, on an ephemeral loopback port with
 * rate limiting and load shedding off unless `env` says otherwise (the levels measure capacity, not
 * refusals; a variable set to undefined is left to the service's default), and resolves once it
 * prints that it is listening. With `WEB_CONCURRENCY` above 1 the memory readings are the primary's.
 */
export function startService(env: Record<string, string | undefined> = {}, bootTimeoutMs = 60_000): Promise<RunningService> {
  const merged: Record<string, string | undefined> = { ...process.env, PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0', ...env };
  const child = fork(WRAPPER, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  let lines = 0;
  let head = '';
  let url: string | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += chunk.toString();
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service did not start within ${bootTimeoutMs} ms\n${stderr}`));
    }, bootTimeoutMs);
    // The service logs a line per request to stdout. It must be drained, or a full pipe would block
    // the server; counting newlines is all the bench needs after the first line.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (url === undefined) {
        head += chunk.toString();
        const line = head.split('\n').find((text) => text.includes('"event":"listening"'));
        if (!line) return;
        url = (JSON.parse(line) as { url: string }).url;
        lines = head.slice(head.indexOf(line) + line.length).split('\n').length - 1;
        clearTimeout(timer);
        resolve(service(child, url, () => lines, () => stderr, exited));
        return;
      }
      for (let index = chunk.indexOf(10); index >= 0; index = chunk.indexOf(10, index + 1)) lines++;
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (url === undefined) reject(new Error(`the service exited with ${code} before listening\n${stderr}`));
    });
  });
}

function service(child: ChildProcess, url: string, logLines: () => number, stderr: () => string, exited: Promise<number | null>): RunningService {
  return {
    url,
    pid: child.pid!,
    logLines,
    stderr,
    memory: () =>
      new Promise((resolve, reject) => {
        const onMessage = (message: LoadServerMemory) => {
          if (message?.type !== 'memory') return;
          child.off('message', onMessage);
          if (!message.gc) reject(new Error('the service was started without --expose-gc; memory readings would include garbage'));
          const { heapUsed, heapTotal, rss, external } = message.usage;
          resolve({ heapUsed, heapTotal, rss, external, loopDelay: message.loopDelay });
        };
        child.on('message', onMessage);
        child.send({ type: 'memory' });
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
