import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { jsonRefusal, limitConnections } from '../limits/connections.ts';

/** Where the service is in its life: readiness is `ready` only between the end of boot and the start of the drain. */
export type Readiness = 'starting' | 'ready' | 'draining';

/** Where the admin listener reads the metrics text: one process's registry, or a fleet's collected from its workers. */
export interface MetricsSource {
  metrics(): Promise<string>;
  readonly contentType: string;
}

/**
 * The admin listener's bounds. Its clients send a whole request at once and want a short answer, so
 * a head not complete within 2 s is cut off, checked every half second; a client holds at most 8 of
 * its 64 connections; and while all 64 are held, a newcomer takes the place of the connection that
 * has waited longest for its head, once that one has waited half a second. Connections dribbling
 * their heads, from one address or from many, cannot keep a probe of /livez out.
 */
export const ADMIN_LIMITS = { headersTimeoutMs: 2_000, requestTimeoutMs: 5_000, checkEveryMs: 500, connections: 64, perClient: 8, evictWaitingAfterMs: 500 } as const;

const CONNECT_ANSWER = (() => {
  const text = JSON.stringify({ status: 'method not allowed' });
  return `HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`;
})();

/** The admin listener's answer on a connection it will not take, in its own shape. */
const ADMIN_REFUSAL = jsonRefusal(503, 'Service Unavailable', { status: 'too many connections' });

/**
 * The admin listener: liveness, readiness and metrics for orchestrators and scrapers, on a port of
 * its own so that none of it is reachable through the API's port.
 */
export function createAdminServer(deps: { metrics: { registry: MetricsSource }; readiness: () => Readiness }): Server {
  const options = {
    headersTimeout: ADMIN_LIMITS.headersTimeoutMs,
    requestTimeout: ADMIN_LIMITS.requestTimeoutMs,
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: ADMIN_LIMITS.checkEveryMs,
  };
  const server = createServer(options, (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'application/json', JSON.stringify({ status: 'method not allowed' }), { allow: 'GET, HEAD' });
      return;
    }
    switch (path) {
      case '/livez':
        send(response, 200, 'application/json', JSON.stringify({ status: 'alive' }));
        return;
      case '/readyz': {
        const state = deps.readiness();
        send(response, state === 'ready' ? 200 : 503, 'application/json', JSON.stringify({ status: state }));
        return;
      }
      case '/metrics':
        deps.metrics.registry.metrics().then(
          (text) => send(response, 200, deps.metrics.registry.contentType, text),
          () => send(response, 500, 'application/json', JSON.stringify({ status: 'metrics unavailable' })),
        );
        return;
      default:
        send(response, 404, 'application/json', JSON.stringify({ status: 'not found', routes: ['/livez', '/readyz', '/metrics'] }));
    }
  });
  // CONNECT asks for a tunnel, which the listener never is: its 405, then close.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end(CONNECT_ANSWER);
  });
  limitConnections(server, {
    total: ADMIN_LIMITS.connections,
    perClient: ADMIN_LIMITS.perClient,
    refusal: ADMIN_REFUSAL,
    evictWaitingAfterMs: ADMIN_LIMITS.evictWaitingAfterMs,
  });
  return server;
}

function send(response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(body);
  response.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-store', ...headers });
  response.end(response.req.method === 'HEAD' ? undefined : bytes);
}
