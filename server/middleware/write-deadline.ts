import type { Middleware } from 'koa';

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
    const timer = setTimeout(() => res.destroy(), timeoutMs);
    res.once('close', () => clearTimeout(timer));
  };
}
