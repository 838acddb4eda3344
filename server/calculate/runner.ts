import type { CalculationRequest, CalculationResult } from './calculation.ts';

/** A held calculation place: run exactly one calculation on it, or release it; either gives the place back. */
export interface CalculationPlace {
  run(request: CalculationRequest, budgetMs: number): Promise<CalculationResult>;
  release(): void;
}

/** Where calculations run: a fixed number of places and no queue. */
export interface CalculationRunner {
  /** A free place, or undefined when every place is busy. */
  tryAcquire(): CalculationPlace | undefined;
  readonly size: number;
  /** Places held right now. */
  inUse(): number;
  close(): Promise<void>;
}
