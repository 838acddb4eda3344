import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { DOCS_HTML_BASE } from '../../docs-site/snapshot.ts';
import type { AppContext, RequestState } from '../http/context.ts';
import { requestClientKey } from '../limits/client.ts';
import { checkedQuery } from '../http/query.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { sendJson } from '../http/respond.ts';
import type { Services } from '../services.ts';
import { createHashedAsset, sendStaticAsset, type StaticAsset } from './static-asset.ts';

const ASSETS_PATH = '/api/docs/assets';

// `validatorUrl: null`: the viewer would otherwise send the description to an outside validator
// and show its badge. The document declares no security scheme, so there is no Authorize button.
// The plugin gives a required parameter with neither example nor default one when Try it out opens
// it, so Execute works at once: a path parameter of an operation whose example requests are named
// by calculator (calculate) the name of the example that fills the body; any other the first
// example the description gives for it (for the catalog's parameters, the catalog's values).
const START = `window.addEventListener('load', function () {
  function firstValue(system, pathMethod, parameter) {
    var requests = system.specSelectors.specJsonWithResolvedSubtrees().getIn(['paths', pathMethod[0], pathMethod[1], 'requestBody', 'content', 'application/json', 'examples']);
    if (parameter.get('in') === 'path' && requests && requests.size > 0) return requests.keySeq().first();
    return parameter.getIn(['schema', 'examples', 0]);
  }
  function filledParameters() {
    return { statePlugins: { spec: { wrapSelectors: { parameterWithMetaByIdentity: function (original, system) {
      return function (state, pathMethod, param) {
        var parameter = original(pathMethod, param);
        if (!parameter || !parameter.get('required') || parameter.get('example') !== undefined || parameter.getIn(['schema', 'default']) !== undefined) return parameter;
        var value = firstValue(system, pathMethod, parameter);
        return value === undefined ? parameter : parameter.set('example', value);
      };
    } } } } };
  }
  window.reference = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#reference', deepLinking: true, docExpansion: 'list', validatorUrl: null, plugins: [filledParameters] });
});
`;

/** A way back from the viewer to the documentation's HTML pages, above the viewer. */
const DOCS_LINK = `<header style="padding: 0.6em 20px; border-bottom: 1px solid #d0d7de; font: 15px/1.4 sans-serif"><a href="${DOCS_HTML_BASE}">&larr; Documentation</a></header>\n`;

/**
 * The viewer's page may run only its own scripts and talk only to this service. Swagger UI sets
 * inline style attributes and draws icons from data: URLs, hence those two allowances.
 */
const VIEWER_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface Viewer {
  /** The page, with a link back to the documentation when the service serves it. */
  readonly page: (withDocsLink: boolean) => string;
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
  const page = (withDocsLink: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tax rules API reference</title>
<link rel="stylesheet" href="${ASSETS_PATH}/${css.fileName}">
</head>
<body>
${withDocsLink ? DOCS_LINK : ''}<div id="reference"></div>
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
  let page: string | undefined;
  return {
    getOpenApiDocument: (ctx: AppContext) => {
      checkedQuery(documentQuery(ctx.query));
      sendJson(ctx, services.openApiJson);
    },
    // The viewer is read (and its bundle hashed) when first asked for, not at boot.
    getApiReference: (ctx: AppContext) => {
      page ??= loadViewer().page(services.docs !== undefined);
      checkedQuery(viewerQuery(ctx.query));
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('content-security-policy', VIEWER_CSP);
      ctx.set('cache-control', 'no-cache');
      ctx.body = page;
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
