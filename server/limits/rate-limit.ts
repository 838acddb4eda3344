import { once } from 'node:events';
import type { Redis } from 'ioredis';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DEFAULT_CONFIG, type ServiceConfig } from '../process/config.ts';
import type { StoreEvent } from './redis-store.ts';

/**
 * The verdict on calculations a client asks for: how many of them may run now (the first ones, up to
 * what is left of the client's window), or `unavailable` when the store could not tell.
 */
export type Admission = number | 'unavailable';

/** Decides how many more calculations a client may start now. */
export interface RateLimiter {
  /** `count` calculations asked for at once (a pay run's items), 1 by default. */
  admit(client: string, count?: number): Promise<Admission>;
}

/**
 * Where the counts are kept: this process's memory; Redis, shared by every process and host that
 * uses it; or the primary process of a `node:cluster` fleet, shared by its workers.
 */
export type RateLimitStore = { kind: 'memory' } | { kind: 'redis'; client: Redis } | { kind: 'cluster' };

/** Names the counters in a shared store, apart from anything else kept there. */
const KEY_PREFIX = 'tax-rules-api:calculations';


/**
 * A fixed-window limit per client, kept by rate-limiter-flexible (a maintained limiter that
 * separates "over the limit" from "the store failed", which map to 429 and 503 respectively).
 * A store that does not answer within `timeoutMs` counts as failed, so a stalled Redis or a busy
 * primary costs a request a quick 503, never a hang. `max` 0 turns limiting off.
 */
export function createRateLimiter(options: { max: number; windowSeconds: number; store?: RateLimitStore; timeoutMs?: number }): RateLimiter {
  const { max } = options;
  if (max === 0) return { admit: async (_client, count = 1) => count };
  const timeoutMs = options.timeoutMs ?? DEFAULT_CONFIG.rateLimitStoreTimeoutMs;
  const limiter = limiterOver(options.store ?? { kind: 'memory' }, max, options.windowSeconds, timeoutMs);
  // The store adds every point asked for, refused or not, in one atomic step, and answers with the
  // window's count after it: the calculations counted at or under `max` are the ones admitted, so
  // single calls and pay runs from one client, in any process, share the window exactly.
  const verdict = (client: string, count = 1): Promise<Admission> =>
    limiter.consume(client, count).then(
      () => count,
      (rejection: unknown) => (rejection instanceof RateLimiterRes ? Math.min(count, Math.max(0, max - (rejection.consumedPoints - count))) : 'unavailable'),
    );
  if (options.store === undefined || options.store.kind === 'memory') return { admit: verdict };
  return {
    admit: (client, count) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve('unavailable'), timeoutMs);
        void verdict(client, count).then((admission) => {
          clearTimeout(timer);
          resolve(admission);
        });
      }),
  };
}

function limiterOver(store: RateLimitStore, points: number, duration: number, timeoutMs: number): RateLimiterAbstract {
  const options = { keyPrefix: KEY_PREFIX, points, duration };
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory(options);
    case 'redis':
      // Refuse at once while the connection is down instead of waiting for the timeout.
      return new RateLimiterRedis({ ...options, storeClient: store.client, rejectIfRedisNotReady: true });
    case 'cluster':
      return new RateLimiterCluster({ ...options, timeoutMs });
  }
}

/** How long a starting service waits for Redis before it serves anyway (refusing calculations until Redis answers). */
const STORE_WAIT_AT_START_MS = 5000;

/**
 * The service's rate limiter as configured: counts in Redis when `REDIS_URL` is set, else shared
 * by the workers of a fleet through its primary, else in this process. Resolves once Redis is
 * connected, or after a few seconds without it, so a fresh instance does not refuse its first
 * calculations merely because the connection is still being made.
 */
export async function configuredRateLimiter(config: ServiceConfig, options: { inFleet: boolean; report: (event: StoreEvent) => void }): Promise<RateLimiter> {
  let store: RateLimitStore = options.inFleet ? { kind: 'cluster' } : { kind: 'memory' };
  if (config.redisUrl) {
    // The Redis client is loaded only by a service that uses one: importing it is a twentieth of a boot.
    const { connectRedisStore } = await import('./redis-store.ts');
    const client = connectRedisStore(config.redisUrl, config.rateLimitStoreTimeoutMs, options.report);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([once(client, 'ready'), new Promise((resolve) => (timer = setTimeout(resolve, STORE_WAIT_AT_START_MS)))]);
    clearTimeout(timer);
    store = { kind: 'redis', client };
  }
  return createRateLimiter({ max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds, store, timeoutMs: config.rateLimitStoreTimeoutMs });
}
