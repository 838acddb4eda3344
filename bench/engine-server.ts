/**
 * A bare node:http server that answers the take-home calculate route with the service's own
 * calculation (`calculate`, the same engine, packs and response body) and the headers captured from
 * the service, its answers written in batches as the service writes them (server/http/answer-batch.ts),
 * and nothing else: no framework, limits, logs or metrics. What any request path around today's
 * engine could reach at best, beside the replay server, which computes nothing.
 *
 *   REPLAY_FILE=captured.json PORT=4100 tsx bench/engine-server.ts
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { answerBatch } from '../server/http/answer-batch.ts';
import { calculate } from '../server/calculate/calculation.ts';
import { DEFAULT_CONFIG } from '../server/process/config.ts';
import { loadShipped, TAKE_HOME } from './lib/packs.ts';
import type { CapturedResponse } from './replay-server.ts';

const file = process.env.REPLAY_FILE;
const port = Number(process.env.PORT);
if (!file || !Number.isInteger(port)) {
  process.stderr.write('REPLAY_FILE and PORT are required\n');
  process.exit(2);
}
const { catalog, takeHome } = loadShipped();
const { jurisdiction, taxYear } = takeHome.context;
const captured = (JSON.parse(readFileSync(file, 'utf8')) as CapturedResponse[]).find((response) => response.method === 'POST');
if (!captured) throw new Error('no captured calculate response');
const path = captured.path;
// The service's headers but its length, which is each answer's own.
const headers = captured.headers.filter(([name]) => name.toLowerCase() !== 'content-length').flat();

const sendSoon = answerBatch(DEFAULT_CONFIG.answerBatchMax, (error) => {
  throw error;
});

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method !== 'POST' || request.url !== path) {
      response.writeHead(404).end();
      return;
    }
    const { facts } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { facts: unknown };
    // Found per request, as the service finds the plan a request names.
    const plan = catalog.find(TAKE_HOME, { jurisdiction, taxYear })!;
    const result = calculate({ plan, facts }, 1000);
    if (result.kind !== 'ok') {
      response.writeHead(500).end();
      return;
    }
    const body = result.body;
    sendSoon(() => {
      response.writeHead(200, [...headers, 'content-length', String(body.length)]);
      response.end(body);
    });
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ event: 'listening', port })}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
