import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import Koa, { type Middleware } from 'koa';
import type { AppContext, RequestState } from './context.ts';
import type { ServiceMetrics } from '../process/metrics.ts';
import { JSON_CONTENT_TYPE } from './respond.ts';
import { watchWrite } from './write-deadline.ts';
import type { SendSoon } from './answer-batch.ts';
import type { OperationSpec } from '../contract/operations.ts';

/** One structured log line per request; never carries bodies, facts or query values. */
export interface RequestLogLine {
  /** The client's well-formed x-request-id, or one made for the request; sent back in the same header. */
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

/**
 * The request frame: what every request gets, whichever route answers it. An id, the headers every
 * answer carries, errors in the contract's shapes, the write deadline, the answer written in a batch
 * at the end of a turn of the event loop (answer-batch.ts), and at the end one log line and its
 * metrics, with no values of any kind.
 */

/** An incoming request id is kept when it is a plain token of at most 128 characters; otherwise one is made. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._~:+=\/-]{1,128}$/;

/** The request's well-formed `x-request-id`, or a new one. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Headers every answer carries besides its request id. */
export const EVERY_ANSWER_HEADERS = { 'x-content-type-options': 'nosniff' } as const;
const EVERY_ANSWER_HEADER_NAMES = Object.keys(EVERY_ANSWER_HEADERS) as (keyof typeof EVERY_ANSWER_HEADERS)[];

/**
 * The Koa application every request goes through. The request frame writes every answer and turns
 * every error into one (`ctx.respond = false`), so Koa's own handling of the response has nothing
 * to do: its watch on each response (on-finished, several listeners and closures a request) and its
 * respond step are left out, and a request runs the middleware alone. An answer starts at 404 until
 * a route answers, as in Koa.
 */
export class FramedApplication extends Koa<RequestState> {
  handleRequest(ctx: AppContext, middleware: (ctx: AppContext) => Promise<void>): Promise<void> {
    ctx.res.statusCode = 404;
    return middleware(ctx);
  }
}

/** The route of a request no route matched, in log lines and metrics. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The status a log line and the metrics give a request whose client went away before its answer could be written: nothing was answered. */
export const CLIENT_GONE_STATUS = 499;

/** Writes a request's log line and counts it, once it is answered. `route` is a template, never the raw path. */
export type RequestRecorder = (requestId: string, method: string, route: string, status: number, startedAt: number) => void;

export function requestRecorder(log: (line: RequestLogLine) => void, metrics: ServiceMetrics): RequestRecorder {
  return (requestId, method, route, status, startedAt) => {
    const durationMs = performance.now() - startedAt;
    log({ requestId, method, route, status, durationMs: Math.round(durationMs * 100) / 100 });
    metrics.observeRequest(method, route, status, durationMs / 1000);
  };
}

/** An error thrown by a request, as the contract answers it. */
export interface ErrorAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface RequestFrameOptions {
  record: RequestRecorder;
  /** What an error thrown while answering becomes: the contract's answer for the operation that failed, counted; unexpected ones reported. */
  answerError: (error: unknown, operation: OperationSpec | undefined) => ErrorAnswer;
  /** Where answers wait for the end of the turn (answer-batch.ts). */
  sendSoon: SendSoon;
  writeTimeoutMs: number;
  /** Where a failure to answer at all is reported (name and stack only). */
  reportFailure: (error: unknown) => void;
}

/**
 * The outermost middleware. Koa does not write the answer (`ctx.respond = false`): the frame hands
 * it to the batch, and once it is written the write deadline starts and the log line and metrics
 * are recorded, so a request's duration always runs from its arrival to its answer leaving the
 * service. A client gone before its answer could be written gets none, and status 499.
 */
export function requestFrame(options: RequestFrameOptions): Middleware<RequestState> {
  const { record, answerError, sendSoon, writeTimeoutMs, reportFailure } = options;
  return async (ctx: AppContext, next) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(ctx.req);
    // Set on the response as they are: Koa's ctx.set allocates arrays for every header it sets.
    ctx.res.setHeader('x-request-id', requestId);
    for (const name of EVERY_ANSWER_HEADER_NAMES) ctx.res.setHeader(name, EVERY_ANSWER_HEADERS[name]);
    try {
      try {
        await next();
      } catch (error) {
        const { status, body, headers } = answerError(error, ctx.state.operation);
        ctx.status = status;
        ctx.set(headers);
        ctx.set('content-type', JSON_CONTENT_TYPE);
        ctx.body = body;
      }
      ctx.respond = false;
      // The route template that matched, never the raw path, which may carry values.
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : UNMATCHED_ROUTE;
      if (!ctx.writable) {
        record(requestId, ctx.method, route, CLIENT_GONE_STATUS, startedAt);
        return;
      }
      sendSoon(() => {
        try {
          watchWrite(ctx.res, writeTimeoutMs);
          writeAnswer(ctx);
          record(requestId, ctx.method, route, ctx.status, startedAt);
        } catch (error) {
          reportFailure(error);
          if (!ctx.res.writableEnded) ctx.res.destroy();
        }
      });
    } catch (failure) {
      // The frame itself failed (making the error's answer, or the log line of a client gone):
      // nothing can be answered any more, and the application has no respond step of Koa's to fall
      // back on.
      reportFailure(failure);
      ctx.res.destroy();
    }
  };
}

/**
 * Writes the answer the middleware left on the context, as Koa would have: its status and headers
 * are already on the response; no body for a status that has none or for HEAD, the status message
 * for no body at all.
 */
function writeAnswer(ctx: AppContext): void {
  const { res } = ctx;
  if (!ctx.writable) {
    res.end();
    return;
  }
  if (EMPTY_STATUSES.has(ctx.status)) {
    ctx.body = null;
    res.end();
    return;
  }
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  const { body } = ctx;
  if (body === null || body === undefined) {
    const message = ctx.message || String(ctx.status);
    ctx.type = 'text';
    ctx.length = Buffer.byteLength(message);
    res.end(message);
    return;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    res.end(body);
    return;
  }
  if (body instanceof Readable) {
    pipeline(body, res, () => undefined);
    return;
  }
  const json = JSON.stringify(body);
  ctx.length = Buffer.byteLength(json);
  res.end(json);
}

/** Statuses whose answers carry no body. */
const EMPTY_STATUSES = new Set([204, 205, 304]);
