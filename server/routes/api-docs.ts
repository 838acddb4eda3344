import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import type { AppContext, RequestState } from '../context.ts';
import { requestClientKey } from '../limits/client.ts';
import { checkedQuery } from '../query.ts';
import type { OperationHandlers } from './operations.ts';
import { sendJson } from './respond.ts';
import type { Services } from '../services.ts';
import { createHashedAsset, sendStaticAsset, type StaticAsset } from '../static-asset.ts';

const ASSETS_PATH = '/api/docs/assets';

// `validatorUrl: null`: the viewer would otherwise send the description to an outside validator
// and show its badge. The document declares no security scheme, so there is no Authorize button.
const START = `window.addEventListener('load', function () {
  window.reference = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#reference', deepLinking: true, docExpansion: 'list', validatorUrl: null });
});
`;

/**
 * The viewer's page may run only its own scripts and talk only to this service. Swagger UI sets
 * inline style attributes and draws icons from data: URLs, hence those two allowances.
 */
const VIEWER_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface Viewer {
  readonly page: string;
  readonly assets: ReadonlyMap<string, StaticAsset>;
}

let viewer: Viewer | undefined;

/** The viewer's page and files, served from the swagger-ui-dist package so it works with no internet. Read once per process. */
function loadViewer(): Viewer {
  if (viewer !== undefined) return viewer;
  const packageDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const asset = (name: string, type: string, body: Buffer) => createHashedAsset(name, type, body);
  const css = asset('swagger-ui.css', 'text/css; charset=utf-8', readFileSync(join(packageDir, 'swagger-ui.css')));
  const bundle = asset('swagger-ui-bundle.js', 'application/javascript; charset=utf-8', readFileSync(join(packageDir, 'swagger-ui-bundle.js')));
  const start = asset('start.js', 'application/javascript; charset=utf-8', Buffer.from(START));
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tax rules API reference</title>
<link rel="stylesheet" href="${ASSETS_PATH}/${css.fileName}">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS_PATH}/${bundle.fileName}"></script>
<script src="${ASSETS_PATH}/${start.fileName}"></script>
</body>
</html>
`;
  viewer = { page, assets: new Map([css, bundle, start].map((file) => [file.fileName, file])) };
  return viewer;
}

/** The API description and the reference viewer that renders it. */
export function apiDocsHandlers(services: Services): OperationHandlers {
  const documentQuery = services.queryChecker('getOpenApiDocument');
  const viewerQuery = services.queryChecker('getApiReference');
  return {
    getOpenApiDocument: (ctx: AppContext) => {
      checkedQuery(documentQuery(ctx.query));
      sendJson(ctx, services.openApiJson);
    },
    // The viewer is read (and its 1.7 MB bundle hashed) when first asked for, not at boot.
    getApiReference: (ctx: AppContext) => {
      checkedQuery(viewerQuery(ctx.query));
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('content-security-policy', VIEWER_CSP);
      ctx.set('cache-control', 'no-cache');
      ctx.body = loadViewer().page;
    },
  };
}

/** The viewer's files, outside the contract's operations. */
export function registerApiDocsAssets(router: Router<RequestState>, services: Services): void {
  router.get(`${ASSETS_PATH}/:name`, async (ctx: AppContext, next) => {
    const asset = loadViewer().assets.get(ctx.params.name!);
    if (asset) await sendStaticAsset(ctx, asset, services.sendingBudget, requestClientKey(ctx.req, services.config.trustProxyHops));
    else await next(); // on to the not-found answer
  });
}
