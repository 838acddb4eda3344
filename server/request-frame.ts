import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestLogLine } from './context.ts';
import type { ServiceMetrics } from './metrics.ts';

/**
 * What every request gets, whichever layer answers it (Koa, or the calculate front): an id, the
 * headers every answer carries, and at the end one log line and its metrics, with no values of any
 * kind.
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

/** The route of a request no route matched, in log lines and metrics. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Writes a request's log line and counts it, once it is answered. `route` is a template, never the raw path. */
export type RequestRecorder = (requestId: string, method: string, route: string, status: number, startedAt: number) => void;

export function requestRecorder(log: (line: RequestLogLine) => void, metrics: ServiceMetrics): RequestRecorder {
  return (requestId, method, route, status, startedAt) => {
    const durationMs = performance.now() - startedAt;
    log({ requestId, method, route, status, durationMs: Math.round(durationMs * 100) / 100 });
    metrics.observeRequest(method, route, status, durationMs / 1000);
  };
}
