import type { ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import { deadlineSweep } from './deadlines.ts';

const writeDeadlines = deadlineSweep<ServerResponse>();

/**
 * Bounds the time from the moment a response is ready to the moment the client has taken all of
 * it: a client that asks for a large answer and never reads it would otherwise hold its connection,
 * and the memory of the answer, for as long as it likes. Call it as the answer is handed over.
 */
export function watchWrite(response: ServerResponse, timeoutMs: number): void {
  writeDeadlines.watch(response, timeoutMs, () => response.destroy());
  response.once('close', () => writeDeadlines.unwatch(response));
}

/** The write deadline for Koa's answers. Must be the outermost middleware, so that the clock starts when the answer is handed over for writing. */
export function writeDeadline(timeoutMs: number): Middleware {
  return async (ctx, next) => {
    await next();
    watchWrite(ctx.res, timeoutMs);
  };
}
