import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** The verdict on one calculation request. */
export type Admission = 'admitted' | 'limited' | 'unavailable';

/** Decides whether a client may start another calculation now. */
export interface RateLimiter {
  admit(client: string): Promise<Admission>;
}

/**
 * A fixed-window limit per client, kept in memory by rate-limiter-flexible (a maintained limiter that
 * separates "over the limit" from "the store failed", which map to 429 and 503 respectively).
 * `max` 0 turns limiting off.
 */
export function createRateLimiter(max: number, windowSeconds: number): RateLimiter {
  if (max === 0) return { admit: async () => 'admitted' };
  const limiter = new RateLimiterMemory({ points: max, duration: windowSeconds });
  return {
    async admit(client) {
      try {
        await limiter.consume(client, 1);
        return 'admitted';
      } catch (rejection) {
        return rejection instanceof RateLimiterRes ? 'limited' : 'unavailable';
      }
    },
  };
}
