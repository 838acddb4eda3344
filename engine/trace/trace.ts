import type { SourceRefJson } from '../expressions/values.ts';

/** One step of a calculation as the API shows it. Built by the engine, never by rule data. */
export interface TraceNode {
  _tag: 'TraceNode';
  ruleId: string;
  title: string;
  formula: string | null;
  inputs: {
    facts: Record<string, unknown>;
    parameters: Record<string, ParameterTrace>;
    /** Values the expression named on the way (`let`), in the order computed. */
    intermediate?: Record<string, unknown>;
    /** The exact result before the rule's rounding, when rounding changed it. */
    beforeRounding?: string;
  };
  result: unknown;
  rounding: string | null;
  sources: readonly SourceRefJson[];
  children: TraceNode[];
}

/** A parameter value a step read: its value as written (or the matched table row) and when it applies. */
export interface ParameterTrace {
  title: string;
  unit: string;
  effectivePeriod: { from: string; toExclusive: string | null };
  source: string;
  value?: unknown;
  matchedRow?: number;
  row?: Readonly<Record<string, unknown>>;
  amountBelowRow?: string;
}
