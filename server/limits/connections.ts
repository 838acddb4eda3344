import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { errorResponse } from '../contract/errors.ts';
import { clientKey } from './client.ts';

/** How long a refused connection is read and discarded before it is closed, so the refusal is not lost to a reset. */
const REFUSAL_LINGER_MS = 1000;
/** Closing every idle connection is a sweep over all of them; once a second is enough while the server is full. */
const EVICTION_INTERVAL_MS = 1000;

/** Limits on the connections a server holds at once. */
export interface ConnectionLimits {
  /** Connections from all clients together. */
  total: number;
  /** Connections from one client (one IPv4 address, one IPv6 /64); 0 for no limit. */
  perClient: number;
  /** Told of every refusal answered, with its status and whether the server or the client's share was full. */
  onRefuse?: (status: number, kind: string) => void;
  /** The answer a refused connection gets; by default the contract's capacity error. */
  refusal?: Refusal;
  /**
   * While full, a newcomer takes the place of the connection that has waited longest for a whole
   * request head, once that one has waited this long: connections that dribble their heads cannot
   * hold every place until their deadline. Unset, a newcomer is refused instead.
   */
  evictWaitingAfterMs?: number;
}

/** A refusal's status and the bytes written for it (a whole HTTP answer that closes the connection). */
export interface Refusal {
  status: number;
  bytes: Buffer;
}

/** A refusal answering `status` with a JSON body, then closing the connection. */
export function jsonRefusal(status: number, reason: string, body: unknown): Refusal {
  const text = JSON.stringify(body);
  return {
    status,
    bytes: Buffer.from(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`),
  };
}

/** What a gated server holds right now, for metrics and tests. */
export interface ConnectionCounts {
  /** Connections handed to the HTTP server. */
  held(): number;
  /** Connections held for one client, by any of its addresses. */
  heldFor(address: string): number;
  /** Connections answered with a refusal and not yet closed. */
  refusing(): number;
}

const countsOf = new WeakMap<Server, ConnectionCounts>();

/** The counts of a server behind `limitConnections`, if it is. */
export function connectionCounts(server: Server): ConnectionCounts | undefined {
  return countsOf.get(server);
}

/** The answer on a connection the server will not take: the contract's capacity error, then close. */
const REFUSAL = (() => {
  const { status, body } = errorResponse({ _tag: 'CalculatorCapacityExceeded' });
  return jsonRefusal(status, 'Service Unavailable', body);
})();

/**
 * Puts a gate in front of an HTTP server's connection handling: a client over its share, or anyone
 * while the server is full, gets a short 503 and a close instead of a reset or a wait, and the HTTP
 * machinery never sees that connection. While the server is full, its idle keep-alive connections
 * are closed, so places free up for newcomers even when many clients each hold a few. Call before
 * the server accepts its first connection.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const handlers = server.listeners('connection') as ((this: Server, socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const heldBy = new Map<string, number>();
  let held = 0;
  let refusing = 0;
  let lastEviction = -Infinity;
  const refusal = limits.refusal ?? REFUSAL;
  // Held connections with no whole request head yet, oldest first, with what gives their place back.
  const waiting = new Map<Socket, { since: number; release: () => void }>();
  if (limits.evictWaitingAfterMs !== undefined) server.on('request', (request: IncomingMessage) => waiting.delete(request.socket));

  /** Closes the connection that has waited longest for its request head, if it has waited long enough; whether one was. */
  const evictLongestWaiting = (now: number): boolean => {
    const oldest = waiting.entries().next().value;
    if (oldest === undefined || now - oldest[1].since < limits.evictWaitingAfterMs!) return false;
    const [socket, { release }] = oldest;
    release();
    socket.destroy();
    return true;
  };

  const refuse = (socket: Socket, kind: 'ConnectionsFull' | 'ClientConnectionsFull') => {
    socket.on('error', () => undefined);
    // A flood of refusals must not itself exhaust the process: past this many at once, a plain close.
    if (refusing >= limits.total) {
      socket.destroy();
      return;
    }
    refusing++;
    const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
    socket.once('close', () => {
      refusing--;
      clearTimeout(timer);
    });
    socket.end(refusal.bytes);
    socket.resume();
    limits.onRefuse?.(refusal.status, kind);
  };

  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const byClient = heldBy.get(key) ?? 0;
    const overShare = limits.perClient > 0 && byClient >= limits.perClient;
    const now = performance.now();
    // Full: room is made for a newcomer within its share by closing the longest waiting head, if allowed.
    if (held >= limits.total && (overShare || limits.evictWaitingAfterMs === undefined || !evictLongestWaiting(now))) {
      if (now - lastEviction >= EVICTION_INTERVAL_MS) {
        lastEviction = now;
        server.closeIdleConnections();
      }
      refuse(socket, 'ConnectionsFull');
      return;
    }
    if (overShare) {
      refuse(socket, 'ClientConnectionsFull');
      return;
    }
    held++;
    // Read again: the connection closed to make room may have been this client's own.
    heldBy.set(key, (heldBy.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      waiting.delete(socket);
      held--;
      const left = heldBy.get(key)! - 1;
      if (left === 0) heldBy.delete(key);
      else heldBy.set(key, left);
    };
    socket.once('close', release);
    if (limits.evictWaitingAfterMs !== undefined) waiting.set(socket, { since: now, release });
    for (const handler of handlers) handler.call(server, socket);
  });
  countsOf.set(server, { held: () => held, heldFor: (address) => heldBy.get(clientKey(address)) ?? 0, refusing: () => refusing });
}
