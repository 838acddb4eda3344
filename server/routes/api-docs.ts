import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import type { AppContext, RequestState } from '../context.ts';
import { sendJson } from './respond.ts';
import type { Services } from '../services.ts';

/** The viewer's files, served from the swagger-ui-dist package so the page works with no internet. */
const VIEWER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tax rules API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/start.js"></script>
</body>
</html>
`;

const START = `window.addEventListener('load', function () {
  window.reference = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#reference', deepLinking: true, docExpansion: 'list' });
});
`;

/** GET /api/docs/openapi.json and the reference viewer at GET /api/docs. */
export function registerApiDocsRoutes(router: Router<RequestState>, services: Services): void {
  const packageDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map(Object.entries(VIEWER_ASSETS).map(([name, type]) => [name, { type, body: readFileSync(join(packageDir, name)) }]));
  assets.set('start.js', { type: 'application/javascript; charset=utf-8', body: Buffer.from(START) });

  router.get('/api/docs/openapi.json', (ctx: AppContext) => sendJson(ctx, services.openApiJson));
  router.get('/api/docs', (ctx: AppContext) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = PAGE;
  });
  router.get('/api/docs/assets/:name', (ctx: AppContext) => {
    const asset = assets.get(ctx.params.name!);
    if (!asset) return; // falls through to the not-found answer
    ctx.type = asset.type;
    ctx.set('cache-control', 'public, max-age=3600');
    ctx.body = asset.body;
  });
}
