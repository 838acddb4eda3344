import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServiceConfig } from './config.ts';
import { errorResponse } from '../contract/errors.ts';
import { limitConnections } from '../limits/connections.ts';
import { isOversizedQuery } from '../http/query.ts';
import { JSON_CONTENT_TYPE } from '../http/respond.ts';

/** Counts an answer given below the application: by the HTTP parser's deadlines, or by the connection gate. */
export type LimitAnswerCounter = (status: number, kind: string) => void;

/**
 * What Node itself answers to a request it cannot hand to the application, as its default handler
 * does; answered here so that the deadline's 408 is counted with the service's other limit answers.
 */
const PARSER_ANSWERS: Record<string, { status: number; kind: string; bytes: Buffer }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, kind: 'RequestTimeout', bytes: Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n') },
  HPE_HEADER_OVERFLOW: { status: 431, kind: 'HeaderFieldsTooLarge', bytes: Buffer.from('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n') },
};
const BAD_REQUEST = { status: 400, kind: 'BadRequest', bytes: Buffer.from('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n') };

/** CONNECT asks the service to be a tunnel, which it never is: the contract's 405, then close. */
const CONNECT_ANSWER = (() => {
  const { status, body, headers } = errorResponse({ _tag: 'MethodNotAllowed', allow: ['GET', 'HEAD', 'POST'] });
  const text = JSON.stringify(body);
  return Buffer.from(
    `HTTP/1.1 ${status} Method Not Allowed\r\nallow: ${headers.allow}\r\ncontent-type: ${JSON_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
})();

/** A request with more than one Host header names no one origin (RFC 9112, 3.2): the contract's 400, then close. */
const MANY_HOSTS_ANSWER = (() => {
  const { status, body } = errorResponse({
    _tag: 'CalculatorInputDecodeError',
    issues: [{ path: ['headers', 'host'], message: 'A request must carry exactly one Host header.' }],
    calculatorId: null,
  });
  return { status, body: JSON.stringify(body) };
})();

/** Whether a request carries more than one Host header. */
function hasManyHosts(request: IncomingMessage): boolean {
  let hosts = 0;
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) if (raw[index]!.length === 4 && raw[index]!.toLowerCase() === 'host' && ++hosts > 1) return true;
  return false;
}

/**
 * The HTTP server with bounds on what one client can hold: header size, time to send headers, idle
 * keep-alive time, and open connections in all and per client. The body has its own limits (64 KiB,
 * 5 s) in the calculate route, and writing the response its own time (see the app); the request as
 * a whole gets body time plus header time.
 */
export function createListeningServer(listener: RequestListener, config: ServiceConfig, countLimitAnswer: LimitAnswerCounter = () => undefined): Server {
  const server = createServer(
    {
      maxHeaderSize: config.maxHeaderBytes,
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.headersTimeoutMs + config.bodyTimeoutMs + config.calcTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // Check header and request deadlines every second, not every 30 s, so slow clients are cut off on time.
      connectionsCheckingInterval: 1000,
    },
    (request, response) => {
      // An oversized query is refused by its route (see http/query.ts); the connection is closed after
      // the answer, so each such request costs its client a connection, within its connection limit.
      const query = request.url?.indexOf('?') ?? -1;
      if (query !== -1 && isOversizedQuery(request.url!.slice(query + 1))) response.setHeader('connection', 'close');
      if (!hasManyHosts(request)) return listener(request, response);
      response.writeHead(MANY_HOSTS_ANSWER.status, { 'content-type': JSON_CONTENT_TYPE, 'content-length': Buffer.byteLength(MANY_HOSTS_ANSWER.body), connection: 'close' });
      response.end(MANY_HOSTS_ANSWER.body);
    },
  );
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => undefined);
    socket.end(CONNECT_ANSWER);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // Only a connection on which nothing was answered yet can still take an answer; a reset cannot.
    if (socket.writable && socket.bytesWritten === 0) {
      const answer = PARSER_ANSWERS[error.code ?? ''] ?? BAD_REQUEST;
      socket.write(answer.bytes);
      countLimitAnswer(answer.status, answer.kind);
    }
    socket.destroy();
  });
  limitConnections(server, { total: config.maxConnections, perClient: config.maxConnectionsPerClient, onRefuse: countLimitAnswer });
  return server;
}
