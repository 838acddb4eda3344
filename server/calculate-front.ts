import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type Router from '@koa/router';
import parseurl from 'parseurl';
import { corsAnswerHeaders } from './middleware/cors.ts';
import { watchWrite } from './middleware/write-deadline.ts';
import { parseQuery } from './query.ts';
import { answerBatch } from './answer-batch.ts';
import { EVERY_ANSWER_HEADERS, requestIdOf, type RequestRecorder } from './request-frame.ts';
import { JSON_CONTENT_TYPE } from './routes/respond.ts';
import type { CalculateExchange } from './routes/calculate.ts';
import type { RequestState } from './context.ts';

/** The status a request's log line and metrics give a calculation whose client went away before its body arrived: nothing was answered. */
const CLIENT_GONE_STATUS = 499;

/** EVERY_ANSWER_HEADERS as name, value, name, value…, as node's writeHead takes them: worked out once. */
const EVERY_ANSWER_HEADER_LIST = Object.entries(EVERY_ANSWER_HEADERS).flat();

export interface CalculateFrontOptions {
  /** Holds the calculate route: what the front matches a path with, as Koa's router would. */
  router: Router<RequestState>;
  /** The route's template, for log lines and metrics. */
  route: string;
  calculate: (exchange: CalculateExchange) => Promise<Buffer | undefined>;
  record: RequestRecorder;
  /** What an error thrown by the calculation becomes: the contract's answer, counted; unexpected ones reported. */
  answerError: (error: unknown) => { status: number; body: string; headers: Record<string, string> };
  corsOrigins: ReadonlySet<string>;
  writeTimeoutMs: number;
  /** Most answers written together at the end of a turn of the event loop (see answer-batch.ts); 1 writes each as soon as it is ready. */
  answerBatchMax: number;
  /** Where a failure to answer at all is reported (name and stack only). */
  reportFailure: (error: unknown) => void;
}

/**
 * Calculate, the busy route, answered on node:http before Koa sees the request: Koa's context,
 * middleware chain and router cost a calculate request about a fifth of its instructions, two thirds
 * as many as the engine's calculation and report (see bench/README.md, "The calculate front").
 * Every other request goes on to Koa.
 * What Koa's middleware gives every answer, the front gives its own: the request id and headers,
 * CORS, errors in the contract's shapes, the write deadline, the log line and the metrics, through
 * the same functions. Its answers leave in batches, at the end of a turn of the event loop
 * (answer-batch.ts).
 */
export function calculateFront(options: CalculateFrontOptions, koa: RequestListener): RequestListener {
  const { router, route, calculate, record, answerError, corsOrigins, writeTimeoutMs, answerBatchMax, reportFailure } = options;
  const sendSoon = answerBatch(answerBatchMax, reportFailure);
  // Only a failure of the front itself lands here (the calculation's own failures are answered):
  // reported, and a request left unanswered has its connection closed.
  const failed = (response: ServerResponse, error: unknown) => {
    reportFailure(error);
    if (!response.writableEnded) response.destroy();
  };

  const answer = async (request: IncomingMessage, response: ServerResponse, exchange: CalculateExchange) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    let status = 200;
    let body: Buffer | undefined;
    const headers: string[] = [];
    try {
      body = await calculate(exchange);
      if (body === undefined) status = CLIENT_GONE_STATUS;
    } catch (error) {
      const problem = answerError(error);
      status = problem.status;
      body = Buffer.from(problem.body);
      for (const name in problem.headers) headers.push(name, problem.headers[name]!);
    }
    if (body === undefined) {
      record(requestId, 'POST', route, status, startedAt);
      return;
    }
    headers.push('x-request-id', requestId, 'content-type', JSON_CONTENT_TYPE, 'content-length', String(body.length), ...EVERY_ANSWER_HEADER_LIST);
    const origin = request.headers.origin;
    if (origin !== undefined && corsOrigins.has(origin)) {
      const cors = corsAnswerHeaders(origin);
      for (const [name, value] of Object.entries(cors)) headers.push(name, value);
    }
    // The log line's duration includes the wait for the batch: it is when the answer left.
    sendSoon(() => {
      try {
        watchWrite(response, writeTimeoutMs);
        response.writeHead(status, headers);
        response.end(body);
        record(requestId, 'POST', route, status, startedAt);
      } catch (error) {
        failed(response, error);
      }
    });
  };

  return (request, response) => {
    if (request.method === 'POST') {
      const url = parseurl(request);
      const path = url?.pathname ?? '';
      const layer = router.match(path, 'POST').pathAndMethod[0];
      if (layer) {
        const { calculatorId } = layer.params(path, layer.captures(path), {});
        const query = parseQuery(typeof url?.query === 'string' ? url.query : '');
        answer(request, response, { request, response, calculatorId: calculatorId!, query }).catch((error: unknown) => failed(response, error));
        return;
      }
    }
    void koa(request, response);
  };
}
