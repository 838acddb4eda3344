/**
 * The service exactly as `npm start` runs it, plus an IPC channel the load bench uses to read the
 * server's memory after a full garbage collection. Start it with `fork` and
 * `execArgv: ['--expose-gc', '--import', 'tsx']`; it adds no routes, so HTTP traffic sees the normal
 * service.
 *
 * Messages: `{ type: 'memory' }` is answered with `{ type: 'memory', usage: process.memoryUsage(), ... }`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A request from the bench over IPC. */
export interface LoadServerRequest {
  type: 'memory';
}

/**
 * The answer to a memory request; `gc` says whether a collection could be forced first.
 * `loopDelay` is how late the server's event loop ran timers since the previous request (in ms): a
 * stall there delays every client at once, which client-side latency alone cannot tell apart from
 * the network or the client.
 */
export interface LoadServerMemory {
  type: 'memory';
  gc: boolean;
  usage: NodeJS.MemoryUsage;
  loopDelay: { p99: number; max: number };
}

if (process.send) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message: LoadServerRequest) => {
    if (message?.type !== 'memory') return;
    const gc = (globalThis as { gc?: () => void }).gc;
    // Read before collecting, so the forced collection's own pause is not counted against the traffic.
    const loopDelay = { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
    // Twice: the first collection can leave objects only reachable through finalisers or weak maps
    // the second one clears, and a single pass makes the reading jumpy between runs.
    gc?.();
    gc?.();
    process.send!({ type: 'memory', gc: gc !== undefined, usage: process.memoryUsage(), loopDelay } satisfies LoadServerMemory);
    loop.reset();
  });
  // The bench died or let go: do not outlive it as an orphan server holding a port and workers.
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

await import('../server/main.ts');
