import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type Router from '@koa/router';
import type { AppContext, RequestState } from '../http/context.ts';
import { FAVICON_FILE } from '../project-paths.ts';


let favicon: { readonly body: Buffer; readonly etag: string } | undefined;

/**
 * The site's icon at `/favicon.ico`, where browsers look for it on every page of the docs and the
 * reference viewer: a route like any other, so it has a request id, a log line and metrics. Its
 * address never changes with its content, so browsers keep it for a day and then revalidate it.
 */
export function registerFavicon(router: Router<RequestState>): void {
  router.get('/favicon.ico', (ctx: AppContext) => {
    favicon ??= readFavicon();
    ctx.status = 200;
    ctx.type = 'image/x-icon';
    ctx.set('cache-control', 'public, max-age=86400');
    ctx.etag = favicon.etag;
    if (ctx.fresh) ctx.status = 304;
    else ctx.body = favicon.body;
  });
}

function readFavicon(): { body: Buffer; etag: string } {
  const body = readFileSync(FAVICON_FILE);
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
}
