import type { Catalog } from '../../engine/index.ts';
import { calculate } from './calculate.ts';
import type { CalculationRunner } from './runner.ts';

/**
 * Runs calculations on the calling thread, counting places. The engine's deadline bounds each run.
 * For tests and tools that want no threads; the service runs the worker pool.
 */
export function createInlineRunner(catalog: Catalog, size: number): CalculationRunner {
  let busy = 0;
  return {
    size,
    tryAcquire() {
      if (busy >= size) return undefined;
      busy++;
      return {
        run: async (request, budgetMs) => {
          try {
            return calculate(catalog, request, budgetMs);
          } finally {
            busy--;
          }
        },
      };
    },
    close: async () => {},
  };
}
