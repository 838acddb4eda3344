import type Router from '@koa/router';
import { DOCS_HTML_ASSETS, DOCS_HTML_BASE, DOCS_HTML_SEARCH } from '../../docs-site/snapshot.ts';
import type { AppContext, RequestState } from '../http/context.ts';
import type { Services } from '../services.ts';
import { requestClientKey } from '../limits/client.ts';
import { createStaticAsset, sendStaticAsset } from './static-asset.ts';
import { searchFor } from './content.ts';

/** The pages load the site's stylesheet and nothing else: no script, nothing from another origin. */
const DOCS_CSP = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The search page's answer while searches are refused (see searchFor). */
const SEARCH_BUSY = 'Search is busy. Try again in a few seconds.';

/**
 * The documentation as HTML for a browser, outside the contract's routes: pages at `/docs/<docs
 * path>`, search at `/docs/_search?term=…`, `/` and `/docs` leading to the first page. Nothing is
 * registered when the service runs without docs.
 */
export function registerDocsHtmlRoutes(router: Router<RequestState>, services: Services): void {
  const html = services.docs?.html;
  if (html === undefined) return;
  const stylesheet = createStaticAsset(html.stylesheet.fileName, 'text/css; charset=utf-8', Buffer.from(html.stylesheet.css));
  const termQuery = services.queryChecker('searchDocs');

  const sendPage = (ctx: AppContext, status: number, body: string): void => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('content-security-policy', DOCS_CSP);
    ctx.set('cache-control', 'no-cache');
    ctx.body = body;
  };
  const toHome = (ctx: AppContext): void => ctx.redirect(html.homeUrl);

  router.get('/', toHome);
  router.get(DOCS_HTML_BASE, toHome);
  // The API's paths match exactly; a browser's /docs/ is a page address, so it leads home too.
  router.get(`${DOCS_HTML_BASE}/`, toHome);
  router.get(DOCS_HTML_SEARCH, async (ctx: AppContext) => {
    if (ctx.querystring === '') return sendPage(ctx, 200, html.search(''));
    // A search box hands over whatever was typed; spaces around it are no reason to refuse it.
    const raw = ctx.query['term'];
    const { values, problems } = termQuery({ ...ctx.query, ...(typeof raw === 'string' ? { term: raw.trim() } : {}) });
    if (problems.length > 0) return sendPage(ctx, 400, html.search('', problems[0]!.message));
    const searched = await searchFor(services, ctx, () => html.search(values['term']!));
    if (searched === undefined) return sendPage(ctx, 503, html.search('', SEARCH_BUSY));
    sendPage(ctx, 200, searched.value);
  });
  router.get(`${DOCS_HTML_ASSETS}/:name`, async (ctx: AppContext) => {
    if (ctx.params.name === stylesheet.fileName) await sendStaticAsset(ctx, stylesheet, services.sendingBudget, requestClientKey(ctx.req, services.config.trustProxyHops));
    else sendPage(ctx, 404, html.notFound);
  });
  router.get(`${DOCS_HTML_BASE}/*path`, (ctx: AppContext) => {
    const path = ctx.path.slice(DOCS_HTML_BASE.length);
    if (path.length > 1 && path.endsWith('/')) {
      ctx.status = 301;
      ctx.redirect(`${DOCS_HTML_BASE}${path.replace(/\/+$/, '')}${ctx.search}`);
      return;
    }
    const page = html.page(path);
    if (page === undefined) sendPage(ctx, 404, html.notFound);
    else sendPage(ctx, 200, page);
  });
}
