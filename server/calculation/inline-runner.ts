import type { Catalog } from '../../engine/index.ts';
import { calculate } from './calculate.ts';
import type { CalculationRunner } from './runner.ts';

/**
 * Runs calculations in the request thread, counting places. The engine checks its deadline before
 * every rule step, so a calculation over budget stops there with a 504. Measured faster than a
 * worker round trip, which costs more than a whole take-home calculation (see bench/README.md).
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
