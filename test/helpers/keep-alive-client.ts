import { Agent, request } from 'node:http';

// Many requests to one service, a few at a time over kept-alive connections: node:http with an
// agent costs the test process far less CPU than fetch does for the same answers (bench/README.md,
// "Figures behind the code"), which matters when a test sends thousands of them on a machine it
// shares with the service.

/** One request to send: a path on the service, and a JSON body as text for a POST. */
export interface OutgoingRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** An answer as received: status, content type and the body's bytes. */
export interface ReceivedAnswer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

/** Sends every request, at most `connections` at once; the answers in request order. */
export async function sendAll(url: string, requests: readonly OutgoingRequest[], connections = 8): Promise<ReceivedAnswer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const answers: ReceivedAnswer[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const at = next++;
      answers[at] = await send(agent, `${url}${requests[at]!.path}`, requests[at]!);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return answers;
}

function send(agent: Agent, url: string, outgoing: OutgoingRequest): Promise<ReceivedAnswer> {
  return new Promise((resolve, reject) => {
    const headers = outgoing.body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(outgoing.body) };
    const sent = request(url, { method: outgoing.method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, contentType: response.headers['content-type'] ?? null, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(outgoing.body);
  });
}
