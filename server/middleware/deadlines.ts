/**
 * Deadlines of many requests, checked together by one interval instead of a timer each: arming and
 * clearing a timer per request was about 4 % of a busy server's instructions. A deadline fires at
 * most DEADLINE_CHECK_MS late; the interval runs only while something is watched.
 */
export const DEADLINE_CHECK_MS = 100;

export interface DeadlineSweep<Key> {
  /** Calls `expire` once `timeoutMs` have passed, unless `unwatch(key)` comes first. */
  watch(key: Key, timeoutMs: number, expire: () => void): void;
  unwatch(key: Key): void;
}

export function deadlineSweep<Key>(): DeadlineSweep<Key> {
  const watched = new Map<Key, { deadline: number; expire: () => void }>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const now = performance.now();
    for (const [key, { deadline, expire }] of watched) {
      if (deadline > now) continue;
      watched.delete(key);
      expire();
    }
    if (watched.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    watch(key, timeoutMs, expire) {
      watched.set(key, { deadline: performance.now() + timeoutMs, expire });
      sweeper ??= setInterval(sweep, DEADLINE_CHECK_MS).unref();
    },
    unwatch(key) {
      watched.delete(key);
    },
  };
}
