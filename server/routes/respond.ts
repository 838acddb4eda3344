import { ApiProblem } from '../errors.ts';
import type { AppContext } from '../context.ts';

/** Answers with a JSON value, or a JSON text already serialised. */
export function sendJson(ctx: AppContext, body: unknown): void {
  ctx.status = 200;
  ctx.type = 'application/json';
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
