import { createServer, type RequestListener, type Server } from 'node:http';
import type { ServiceConfig } from './config.ts';

/**
 * The HTTP server with bounds on what one client can hold: header size, time to send headers, idle
 * keep-alive time and open connections. The body has its own limits (64 KiB, 5 s) in the calculate
 * route; the request as a whole gets body time plus header time.
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
  server.maxConnections = config.maxConnections;
  return server;
}
