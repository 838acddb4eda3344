import { inFlight } from './in-flight.ts';

/**
 * Deadlines of many requests (bodies being read, answers being written), checked together by one
 * interval. A deadline fires at most DEADLINE_CHECK_MS late; the interval runs only while something
 * is watched. Counted with callgrind, a timer per request cost about the same instructions: the
 * sweep is one mechanism for both kinds of deadline, not a saving.
 */
const DEADLINE_CHECK_MS = 100;

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
