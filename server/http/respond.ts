import { ApiProblem } from '../contract/errors.ts';
import type { AppContext } from './context.ts';

/**
 * The content type of every JSON answer, as Koa's `ctx.type = 'application/json'` would make it, set
 * as it is: the setter looks the type up on every request (its cost: bench/README.md, "Figures
 * behind the code").
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Answers with a JSON value, or a JSON text already serialised. */
export function sendJson(ctx: AppContext, body: unknown): void {
  ctx.status = 200;
  ctx.set('content-type', JSON_CONTENT_TYPE);
  ctx.body = typeof body === 'string' ? body : JSON.stringify(body);
}

/** Runs an operation within its time budget; over budget it becomes a 504. */
export async function withinBudget<T>(budgetMs: number, operation: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiProblem({ _tag: 'CalculatorOperationTimedOut' })), budgetMs);
  });
  try {
    return await Promise.race([operation(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
