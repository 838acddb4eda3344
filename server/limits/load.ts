import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Whether this process is too busy to start more costly work now. */
export interface LoadMonitor {
  saturated(): boolean;
  close(): void;
}

/** How often the event loop is sampled. */
const SAMPLE_EVERY_MS = 20;
/** A loop busy for at least this share of a stretch of time is busy with its own work. */
const BUSY_SHARE = 0.9;

/**
 * Watches the event loop: the service is saturated when its loop runs late by more than
 * `maxDelayMs` while busy with its own work. Lateness alone is not enough: on a machine shared with
 * other work a process can be kept waiting while its loop is idle, and refusing work then would not
 * help. Both the last sample and the one now overdue count, so a long stretch of work is seen while
 * it lasts, not only after. Judging starts with the first sample, so the work of building the
 * service around the monitor does not count. `maxDelayMs` 0 never reports saturation.
 */
export function monitorEventLoop(maxDelayMs: number): LoadMonitor {
  if (maxDelayMs === 0) return { saturated: () => false, close: () => undefined };
  let since: EventLoopUtilization = performance.eventLoopUtilization();
  let expected = performance.now() + SAMPLE_EVERY_MS;
  let late = false;
  let sampled = false;
  const timer = setInterval(() => {
    const now = performance.now();
    const busy = performance.eventLoopUtilization(since).utilization;
    since = performance.eventLoopUtilization();
    late = sampled && now - expected > maxDelayMs && busy >= BUSY_SHARE;
    sampled = true;
    expected = now + SAMPLE_EVERY_MS;
  }, SAMPLE_EVERY_MS);
  timer.unref();
  return {
    saturated() {
      if (!sampled) return false;
      if (late) return true;
      return performance.now() - expected > maxDelayMs && performance.eventLoopUtilization(since).utilization >= BUSY_SHARE;
    },
    close: () => clearInterval(timer),
  };
}
