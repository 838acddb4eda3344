import type Router from '@koa/router';
import type { Next } from 'koa';
import type { AppContext, RequestState } from './context.ts';
import { routePath, type OperationSpec } from '../contract/operations.ts';

/** What answers one operation of the API. */
export type OperationHandler = (ctx: AppContext, next: Next) => unknown;

/** Handlers by operation id. */
export type OperationHandlers = Readonly<Record<string, OperationHandler>>;

/**
 * Registers each operation of the table at its path and method, named by its operation id, with its
 * handler, on `router`. The table is the one list of the API's routes: the
 * routers, request validation and the API description all read it. The request's state carries the
 * operation it matched. Throws when an operation has no handler or a handler no operation, so
 * neither can be forgotten.
 */
export function registerOperations(router: Router<RequestState>, operations: readonly OperationSpec[], handlers: OperationHandlers): void {
  const unknown = Object.keys(handlers).filter((operationId) => !operations.some((operation) => operation.operationId === operationId));
  if (unknown.length > 0) throw new Error(`handlers for operations the table does not have: ${unknown.join(', ')}`);
  for (const operation of operations) {
    const handler = handlers[operation.operationId];
    if (!handler) throw new Error(`operation ${operation.operationId} has no handler`);
    // One layer per route, not a layer that notes the operation and then the handler: each layer
    // the router composes is another promise and closure on every request.
    router[operation.method](operation.operationId, routePath(operation), (ctx: AppContext, next: Next) => {
      ctx.state.operation = operation;
      return handler(ctx, next);
    });
  }
}

/** The methods the router answers for a path, GET before HEAD, or none when no route matches it. */
export function allowedMethods(router: Router<RequestState>, path: string): string[] {
  const methods = new Set<string>();
  for (const layer of router.match(path, 'GET').path) for (const method of layer.methods) if (method !== 'HEAD') methods.add(method);
  // The router answers HEAD wherever it answers GET.
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods];
}
