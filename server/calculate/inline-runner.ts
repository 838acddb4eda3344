import { calculate } from './calculation.ts';
import type { CalculationRunner } from './runner.ts';

/**
 * Runs calculations in the request thread, counting places. The engine checks its deadline before
 * every rule step, so a calculation over budget stops there with a 504. A worker round trip costs
 * more than a whole take-home calculation (bench/README.md), so the request thread is the default.
 * The calculation itself never waits, so a place counts mostly while its request waits for the
 * admission verdict: the places bound the calculations queued behind a slow rate-limit store.
 */
export function createInlineRunner(size: number): CalculationRunner {
  let busy = 0;
  return {
    size,
    inUse: () => busy,
    tryAcquire() {
      if (busy >= size) return undefined;
      busy++;
      let held = true;
      const release = () => {
        if (held) busy--;
        held = false;
      };
      return {
        run: async (request, budgetMs) => {
          try {
            return calculate(request, budgetMs);
          } finally {
            release();
          }
        },
        release,
      };
    },
    close: async () => {},
  };
}
