import { createServer, type Server, type ServerResponse } from 'node:http';

/** Where the service is in its life: readiness is `ready` only between the end of boot and the start of the drain. */
export type Readiness = 'starting' | 'ready' | 'draining';

/**
 * The admin listener: liveness, readiness and metrics for orchestrators and scrapers, on a port of
 * its own so that none of it is reachable through the API's port.
 */
/** Where the admin listener reads the metrics text: one process's registry, or a fleet's collected from its workers. */
export interface MetricsSource {
  metrics(): Promise<string>;
  readonly contentType: string;
}

export function createAdminServer(deps: { metrics: { registry: MetricsSource }; readiness: () => Readiness }): Server {
  const server = createServer({ headersTimeout: 5_000, requestTimeout: 10_000, keepAliveTimeout: 5_000 }, (request, response) => {
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
  server.maxConnections = 64;
  return server;
}

function send(response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(body);
  response.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-store', ...headers });
  response.end(response.req.method === 'HEAD' ? undefined : bytes);
}
