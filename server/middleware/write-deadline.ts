import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { deadlineSweep } from './deadlines.ts';

const writeDeadlines = deadlineSweep<ServerResponse>();

/**
 * Bounds the time from the moment a response is ready to the moment the client has taken all of
 * it: a client that asks for a large answer and never reads it would otherwise hold its connection,
 * and the memory of the answer, for as long as it likes. Must be the outermost middleware, so that
 * the clock starts when the answer is handed over for writing.
 */
export function writeDeadline(timeoutMs: number): Middleware {
  return async (ctx, next) => {
    await next();
    const { res } = ctx;
    writeDeadlines.watch(res, timeoutMs, () => res.destroy());
    res.once('close', () => writeDeadlines.unwatch(res));
  };
}
