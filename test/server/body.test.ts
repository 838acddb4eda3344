import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BodyReadFailure, readBody } from '../../server/http/body.ts';

// readBody on real sockets, with a body that has arrived whole by the time it is read and with one
// still arriving: the same bytes either way, and the same limit.

const LIMIT = 64;

interface Read {
  /** Whether the whole body had arrived when readBody was called. */
  complete: boolean;
  outcome: string;
}

/** A server that reads each request's body after `delayMs` and reports what it got. */
async function serverReading(delayMs: number): Promise<{ server: Server; port: number; reads: Read[] }> {
  const reads: Read[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    setTimeout(() => {
      const complete = request.complete;
      readBody(request, LIMIT, 2_000).then(
        (body) => reads.push({ complete, outcome: body.toString() }),
        (error: unknown) => reads.push({ complete, outcome: error instanceof BodyReadFailure ? error.reason : String(error) }),
      ).finally(() => response.end());
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, reads };
}

/** Sends a POST whose body goes in `parts`, `gapMs` apart, chunked (no content-length). */
function post(port: number, parts: string[], gapMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', agent: false }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    const send = (index: number) => {
      if (index === parts.length) return request.end();
      request.write(parts[index]);
      setTimeout(() => send(index + 1), gapMs);
    };
    send(0);
  });
}

test('a body that has arrived whole is read, up to and including the limit', async () => {
  const { server, port, reads } = await serverReading(50);
  try {
    await post(port, ['{"facts":', '{"a":1}}'], 0);
    await post(port, ['z'.repeat(LIMIT - 10), 'z'.repeat(10)], 0);
    assert.equal(reads, [
      { complete: true, outcome: '{"facts":{"a":1}}' },
      { complete: true, outcome: 'z'.repeat(LIMIT) },
    ]);
  } finally {
    server.close();
  }
});

test('a whole body over the limit, sent without a length, is refused as too large', async () => {
  const { server, port, reads } = await serverReading(50);
  try {
    await post(port, ['x'.repeat(LIMIT), 'y'], 0);
    assert.equal(reads, [{ complete: true, outcome: 'too-large' }]);
  } finally {
    server.close();
  }
});

test('a body still arriving is read as it comes, and its limit still holds', async () => {
  const { server, port, reads } = await serverReading(0);
  try {
    await post(port, ['{"facts":', '{"a":1}}'], 100);
    await post(port, ['x'.repeat(LIMIT - 1), 'yy'], 100);
    assert.equal(reads, [
      { complete: false, outcome: '{"facts":{"a":1}}' },
      { complete: false, outcome: 'too-large' },
    ]);
  } finally {
    server.close();
  }
});

test.run();
