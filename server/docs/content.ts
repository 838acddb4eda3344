import type { DocsShape } from '../../docs-site/index.ts';
import { ApiProblem } from '../contract/errors.ts';
import { requestClientKey } from '../limits/client.ts';
import { createLruCache } from './lru-cache.ts';
import type { AppContext } from '../http/context.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { sendJson } from '../http/respond.ts';
import type { Services } from '../services.ts';

/** Search answers kept for repeated terms: at most 20 results each, a few megabytes in all. */
const SEARCH_CACHE_ENTRIES = 500;

/** Documentation navigation, pages (JSON and Markdown) and search. Errors here travel unwrapped. */
export function docsHandlers(services: Services): OperationHandlers {
  const { docs } = services;
  const pathQuery = services.queryChecker('getDocsPage');
  const termQuery = services.queryChecker('searchDocs');
  const navigationQuery = services.queryChecker('getDocsNavigation');
  // Documentation routes answer query problems in their own, unwrapped, error shape.
  const checked = (check: typeof pathQuery, ctx: AppContext): Record<string, string | undefined> => {
    const { values, problems } = check(ctx.query);
    if (problems.length > 0) throw new ApiProblem({ _tag: 'DocsQueryInvalid', message: problems[0]!.message });
    return values;
  };

  // Searches are the costliest answers the service gives for the least input, so repeated terms are
  // answered from memory, and new ones only within the client's share of search time (see searchFor).
  const searches = createLruCache<string, string>(SEARCH_CACHE_ENTRIES);

  return {
    getDocsNavigation: (ctx: AppContext) => {
      checked(navigationQuery, ctx);
      sendJson(ctx, { primaryNavigation: docs?.navigation() ?? [] } satisfies DocsShape<'DocsNavigation'>);
    },
    getDocsPage: (ctx: AppContext) => {
      const path = checked(pathQuery, ctx).path!;
      const page = docs?.page(path);
      if (!page) throw new ApiProblem({ _tag: 'DocsPageUnavailable' });
      sendJson(ctx, page);
    },
    getDocsMarkdown: (ctx: AppContext) => {
      const path = checked(pathQuery, ctx).path!;
      const markdown = docs?.markdown(path);
      if (markdown === undefined) throw new ApiProblem({ _tag: 'DocsPageUnavailable' });
      ctx.status = 200;
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = markdown;
    },
    searchDocs: async (ctx: AppContext) => {
      const term = checked(termQuery, ctx).term!;
      if (!docs) throw new ApiProblem({ _tag: 'DocsSearchUnavailable' });
      let answer = searches.get(term);
      if (answer === undefined) {
        let searched: { value: string } | undefined;
        try {
          searched = await searchFor(services, ctx, () => JSON.stringify(docs.search(term)));
        } catch {
          throw new ApiProblem({ _tag: 'DocsSearchUnavailable' });
        }
        if (searched === undefined) throw new ApiProblem({ _tag: 'DocsSearchUnavailable' });
        answer = searched.value;
        searches.set(term, answer);
      }
      sendJson(ctx, answer);
    },
  };
}

/** The longest a refused search waits for its answer. */
const REFUSAL_WAIT_MAX_MS = 1000;

/**
 * Runs a search for the request's client, or refuses it (undefined): while the service is
 * saturated, and while the client has spent its share of search time, so that one client's stream
 * of new terms cannot take the time every other client's requests need. A refusal for the share
 * comes when the client has time again, so a client that asks again at once is answered as often
 * as its share allows, not as often as a refusal can be written.
 */
export async function searchFor<T>(services: Services, ctx: AppContext, search: () => T): Promise<{ value: T } | undefined> {
  if (services.load.saturated()) return undefined;
  const outcome = services.searchShare.run(requestClientKey(ctx.req, services.config.trustProxyHops), search);
  if (outcome.ran) return { value: outcome.value };
  await new Promise((resolve) => setTimeout(resolve, Math.min(outcome.refillsInMs, REFUSAL_WAIT_MAX_MS)));
  return undefined;
}
