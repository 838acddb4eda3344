/**
 * A bare node:http server that answers each known route with a response captured from the real
 * service, byte for byte (status, headers and body; node adds Date and keep-alive as it does for
 * the service). The ceiling the HTTP bench compares the service with.
 *
 *   REPLAY_FILE=captured.json PORT=4100 tsx bench/replay-server.ts
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export interface CapturedResponse {
  method: string;
  path: string;
  status: number;
  /** Header name/value pairs in the order received, without Date, Connection and Keep-Alive. */
  headers: [string, string][];
  bodyBase64: string;
}

const file = process.env.REPLAY_FILE;
const port = Number(process.env.PORT);
if (!file || !Number.isInteger(port)) {
  process.stderr.write('REPLAY_FILE and PORT are required\n');
  process.exit(2);
}
const routes = new Map(
  (JSON.parse(readFileSync(file, 'utf8')) as CapturedResponse[]).map((captured) => [
    `${captured.method} ${captured.path}`,
    { status: captured.status, headers: captured.headers.flat(), body: Buffer.from(captured.bodyBase64, 'base64') },
  ]),
);

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  const route = routes.get(`${request.method} ${path}`);
  // Read the whole request body first, as the service does, then answer.
  request.resume();
  request.on('end', () => {
    if (!route) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(route.status, route.headers);
    response.end(route.body);
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ event: 'listening', port })}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
