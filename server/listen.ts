import { createServer, type RequestListener, type Server } from 'node:http';
import type { ServiceConfig } from './config.ts';
import { limitConnections } from './limits/connections.ts';

/**
 * The HTTP server with bounds on what one client can hold: header size, time to send headers, idle
 * keep-alive time, and open connections in all and per client. The body has its own limits (64 KiB,
 * 5 s) in the calculate route, and writing the response its own time (see the app); the request as
 * a whole gets body time plus header time.
 */
export function createListeningServer(listener: RequestListener, config: ServiceConfig): Server {
  const server = createServer(
    {
      maxHeaderSize: config.maxHeaderBytes,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.headersTimeoutMs + config.bodyTimeoutMs + config.calcTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Check header and request deadlines every second, not every 30 s, so slow clients are cut off on time.
      connectionsCheckingInterval: 1000,
    },
    listener,
  );
  limitConnections(server, { total: config.maxConnections, perClient: config.maxConnectionsPerClient });
  return server;
}
