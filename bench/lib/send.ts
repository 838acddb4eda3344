import { request as httpRequest } from 'node:http';

/** A whole answer: status, header pairs in the order received, body. */
export interface Reply {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** One request on its own connection to a server on this machine; a body is sent as JSON. */
export function send(port: number, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const headers: [string, string][] = [];
          for (let index = 0; index < res.rawHeaders.length; index += 2) headers.push([res.rawHeaders[index]!, res.rawHeaders[index + 1]!]);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}
