import { Redis } from 'ioredis';

/** A change in whether the shared rate-limit store can be reached; carries no address or error text. */
export interface StoreEvent {
  event: 'rate-limit-store';
  state: 'ready' | 'unreachable';
}

/**
 * Connects to the Redis that keeps the fleet's rate-limit counts, with ioredis. Commands fail fast
 * instead of queueing while the connection is down, and time out after `timeoutMs` when Redis does
 * not answer, so admission answers 503 rather than waiting; the client keeps reconnecting in the
 * background, so admission recovers by itself when Redis is back. `report` hears each change of
 * state once, never the URL (it may hold a password) or an error message (it names the address).
 */
export function connectRedisStore(url: string, timeoutMs: number, report: (event: StoreEvent) => void): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    connectTimeout: Math.max(timeoutMs, 1000),
    // Try again soon, then every second: an outage costs at most a second of 503s after Redis is back.
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    connectionName: 'tax-rules-api',
  });
  let state: StoreEvent['state'] | undefined;
  const enter = (next: StoreEvent['state']) => {
    if (state === next) return;
    state = next;
    report({ event: 'rate-limit-store', state: next });
  };
  client.on('ready', () => enter('ready'));
  client.on('close', () => enter('unreachable'));
  // Errors surface as refused admissions; the event only needs a listener so it is not thrown.
  client.on('error', () => undefined);
  return client;
}
