import type { Middleware } from 'koa';

/** CORS for the listed origins only: GET and POST with a content-type header, no credentials. */
export function corsMiddleware(origins: readonly string[]): Middleware {
  const allowed = new Set(origins);
  return async (ctx, next) => {
    const origin = ctx.get('origin');
    if (!origin || !allowed.has(origin)) return next();
    ctx.vary('origin');
    ctx.set('access-control-allow-origin', origin);
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.set('access-control-allow-methods', 'GET, POST');
      ctx.set('access-control-allow-headers', 'content-type');
      ctx.set('access-control-max-age', '600');
      ctx.status = 204;
      return;
    }
    ctx.set('access-control-expose-headers', 'retry-after');
    await next();
  };
}
