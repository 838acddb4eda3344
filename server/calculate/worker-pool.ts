import { Worker } from 'node:worker_threads';
import type { StoredYamlFiles } from '../../engine/index.ts';
import { planKeyOf, type CalculationRequest, type CalculationResult } from './calculation.ts';
import type { CalculationPlace, CalculationRunner } from './runner.ts';
import type { WorkerJob } from './worker.ts';

const ENTRY = new URL('./worker-entry.js', import.meta.url);
/** Extra time a worker gets past its budget to report its own timeout before it is stopped. */
const DEFAULT_GRACE_MS = 250;

interface Handle {
  worker: Worker;
  pending?: { id: number; resolve: (result: CalculationResult) => void; timer: NodeJS.Timeout };
}

/**
 * A fixed pool of worker threads, one calculation place each, with no queue. A calculation that
 * overruns its budget is stopped by terminating its thread, which is then replaced, so a runaway
 * pack can never block the server or other clients.
 */
export async function startWorkerPool(options: { size: number; packPaths: string[]; taxYears?: readonly string[]; storedYaml?: StoredYamlFiles; graceMs?: number }): Promise<CalculationRunner> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const idle: Handle[] = [];
  const all = new Set<Handle>();
  let nextId = 0;
  let closing = false;

  const spawn = (): Promise<Handle> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(ENTRY, { workerData: { packPaths: options.packPaths, taxYears: options.taxYears, storedYaml: options.storedYaml }, execArgv: [] });
      const handle: Handle = { worker };
      worker.once('message', (message: { type: string; message?: string }) => {
        if (message.type !== 'ready') {
          reject(new Error(message.message ?? 'a calculation worker failed to start'));
          return;
        }
        all.add(handle);
        worker.on('message', (reply: { type: string; id: number; result: CalculationResult }) => {
          // A report crosses the thread as a plain Uint8Array: a Buffer view of the same memory again.
          const { result } = reply;
          if (result.kind === 'ok') result.body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
          settle(handle, reply.id, result);
        });
        resolve(handle);
      });
      worker.once('error', reject);
      worker.on('exit', () => {
        all.delete(handle);
        const index = idle.indexOf(handle);
        if (index >= 0) idle.splice(index, 1);
        if (handle.pending) settle(handle, handle.pending.id, { kind: 'unavailable' });
      });
    });

  const settle = (handle: Handle, id: number, result: CalculationResult) => {
    const pending = handle.pending;
    if (!pending || pending.id !== id) return;
    clearTimeout(pending.timer);
    handle.pending = undefined;
    pending.resolve(result);
    if (all.has(handle) && !closing) idle.push(handle);
  };

  const replace = (handle: Handle) => {
    all.delete(handle);
    void handle.worker.terminate();
    if (closing) return;
    spawn().then(
      (fresh) => idle.push(fresh),
      () => undefined, // The pool shrinks by one; the remaining places keep serving.
    );
  };

  const first = await Promise.all(Array.from({ length: options.size }, spawn));
  idle.push(...first);

  return {
    size: options.size,
    inUse: () => all.size - idle.length,
    tryAcquire(): CalculationPlace | undefined {
      const handle = idle.pop();
      if (!handle) return undefined;
      return {
        run: (request: CalculationRequest, budgetMs: number) =>
          new Promise<CalculationResult>((resolve) => {
            const id = ++nextId;
            const timer = setTimeout(() => {
              handle.pending = undefined;
              resolve({ kind: 'timeout' });
              replace(handle);
            }, budgetMs + graceMs);
            handle.pending = { id, resolve, timer };
            handle.worker.postMessage({ id, plan: planKeyOf(request.plan), facts: request.facts, budgetMs } satisfies WorkerJob);
          }),
        release: () => {
          if (all.has(handle) && !closing && !idle.includes(handle)) idle.push(handle);
        },
      };
    },
    async close() {
      closing = true;
      await Promise.all([...all].map((handle) => handle.worker.terminate()));
    },
  };
}
