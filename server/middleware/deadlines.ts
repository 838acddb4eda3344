import { inFlight } from '../in-flight.ts';

/**
 * Deadlines of many requests, checked together by one interval instead of a timer each: arming and
 * clearing a timer per request was about 4 % of a busy server's instructions. A deadline fires at
 * most DEADLINE_CHECK_MS late; the interval runs only while something is watched.
 */
export const DEADLINE_CHECK_MS = 100;

export interface DeadlineSweep<Key extends object> {
  /** Calls `expire` once `timeoutMs` have passed, unless `unwatch(key)` comes first. */
  watch(key: Key, timeoutMs: number, expire: () => void): void;
  unwatch(key: Key): void;
}

export function deadlineSweep<Key extends object>(): DeadlineSweep<Key> {
  // The deadline rides on the watched object itself: no per-request entry in a long-lived map (see in-flight.ts).
  const deadline = Symbol('deadline');
  type Watched = Key & { [deadline]?: { at: number; expire: () => void } };
  const watched = inFlight<Watched>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const key of watched.snapshot()) {
      const due = key[deadline]!;
      if (due.at > now) continue;
      watched.delete(key);
      key[deadline] = undefined;
      due.expire();
    }
    if (watched.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    watch(key: Watched, timeoutMs, expire) {
      key[deadline] = { at: performance.now() + timeoutMs, expire };
      watched.add(key);
      sweeper ??= setInterval(sweep, DEADLINE_CHECK_MS).unref();
    },
    unwatch(key: Watched) {
      if (watched.delete(key)) key[deadline] = undefined;
    },
  };
}
