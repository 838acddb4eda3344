// Lane: services (npm run test:fast leaves this file out).
import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines, startService, stopService } from '../helpers/service-process.ts';

// The admin listener of a fleet (WEB_CONCURRENCY=2): /metrics gathers every worker's metrics.


/** A GET on a connection of its own: its status. */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

const until = async (condition: () => boolean, what: string) => {
  for (const deadline = performance.now() + 30_000; !condition(); await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (performance.now() > deadline) assert.unreachable(`never: ${what}`);
  }
};

test('a fleet\'s /metrics answers at once with the requests of every worker, each series labelled with its worker', async () => {
  const service = await startService({ WEB_CONCURRENCY: '2', ADMIN_PORT: '0', RATE_LIMIT_MAX: '0' });
  try {
    const admin = String(logLines(service).find((line) => line.event === 'admin-listening')!.url);
    const healthLines = () => logLines(service).filter((line) => line.event === 'request' && line.route === '/api/health');
    // Each request on a connection of its own: the primary hands connections to the workers in turn.
    let sent = 0;
    for (; sent < 10 || new Set(healthLines().map((line) => line.worker)).size < 2; sent++) {
      assert.ok(sent < 100, 'both workers answered');
      assert.is(await get(`${service.url}/api/health`), 200);
    }
    await until(() => healthLines().length === sent, 'a request line for every request');
    const startedAt = performance.now();
    const response = await fetch(`${admin}/metrics`);
    const text = await response.text();
    assert.is(response.status, 200, text);
    assert.ok(performance.now() - startedAt < 2000, 'answered at once');
    const counted = new Map<string, number>();
    for (const match of text.matchAll(/^http_requests_total\{([^}]*)\} (\d+)$/gm)) {
      const labels = match[1]!;
      if (!labels.includes('route="/api/health"') || !labels.includes('status="200"')) continue;
      const worker = /worker="(\d+)"/.exec(labels)?.[1];
      assert.ok(worker, `a worker label on ${labels}`);
      counted.set(worker!, (counted.get(worker!) ?? 0) + Number(match[2]));
    }
    const answered = new Map<string, number>();
    for (const line of healthLines()) answered.set(String(line.worker), (answered.get(String(line.worker)) ?? 0) + 1);
    assert.equal(Object.fromEntries(counted), Object.fromEntries(answered));
    assert.is(counted.size, 2);
  } finally {
    await stopService(service);
  }
});

test.run();
