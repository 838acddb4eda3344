import { connect, type Socket } from 'node:net';

/** A response read off a raw socket: status, headers, body, and whether the server closed the connection. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  closed: boolean;
}

/**
 * Opens a raw connection so a test can send a request the way a slow or greedy client would:
 * headers first, then body bytes when it chooses. `response` resolves once a whole response arrived
 * (by content-length) or the server closed the socket.
 */
export function rawRequest(url: string, head: string): { socket: Socket; response: Promise<RawResponse> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(head);
  const response = new Promise<RawResponse>((resolve) => {
    let buffer = Buffer.alloc(0);
    let parsed: RawResponse | undefined;
    const tryParse = (closed: boolean) => {
      const text = buffer.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        if (closed) resolve({ status: 0, headers: {}, body: '', closed });
        return;
      }
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      const body = buffer.subarray(end + 4);
      if (body.length >= length || closed) {
        parsed ??= { status: Number(statusLine!.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8'), closed };
        parsed.closed = closed;
        if (closed) resolve(parsed);
      }
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      tryParse(false);
    });
    socket.on('close', () => tryParse(true));
    socket.on('error', () => undefined);
  });
  return { socket, response };
}
