import { intermediatesBeforeRounding, runCalculator, type CalculatorPlan, type ParameterTrace, type TraceNode } from '../../engine/index.ts';
import { canonical } from '../lib/canonical.ts';
import { traceEveryStep } from '../lib/trace-all.ts';
import { isMoney } from '../lib/values.ts';
import { reportFigures, type Figure } from './figures.ts';
import type { BeforeRounding } from './tree.ts';

/** One side of a comparison: which calculator in which context, from which pack, and its report. */
export interface Side {
  context: { jurisdiction: string; taxYear: string };
  rulePackVersion: string;
  report: Record<string, unknown>;
}

/** A figure in both results: money in cents with the difference new − old; anything else says whether it changed. */
export interface FigureChange {
  figure: string;
  label: string;
  old: unknown;
  new: unknown;
  /** New minus old, in cents, when both are money; otherwise null. */
  differenceCents: number | null;
  changed: boolean;
}

/** A parameter value a step read, with its source spelled out. */
export interface ParameterValue {
  title: string;
  unit: string;
  value?: unknown;
  matchedRow?: number;
  row?: Readonly<Record<string, unknown>>;
  amountBelowRow?: string;
  effectivePeriod: { from: string; toExclusive: string | null };
  source: { id: string; reference: string | null; title: string | null };
}

/** Something a step read or produced, old → new; `null` where one side has none. */
export interface Difference<T = unknown> {
  name: string;
  old: T | null;
  new: T | null;
}

/**
 * A parameter read, old → new. For a table read in both, `otherRows` says whether the rows other
 * than the matched ones differ too: the matched row alone cannot show that (a marginal table's
 * amount due below a row moves when an earlier row's rate does), pack-diff shows the whole table.
 */
export interface ParameterDifference extends Difference<ParameterValue> {
  otherRows?: 'same' | 'changed';
}

/** A step whose inputs or result differ: only what differs is listed. */
export interface StepChange {
  ruleId: string;
  title: string;
  /** `both` when both calculations ran the step; otherwise the one that did. */
  ranIn: 'both' | 'old' | 'new';
  facts: Difference[];
  parameters: ParameterDifference[];
  intermediate: Difference<{ value: unknown; beforeRounding: string | null }>[];
  beforeRounding: Difference<string> | null;
  result: Difference | null;
}

export interface Comparison {
  calculatorId: string;
  old: Side;
  new: Side;
  figures: FigureChange[];
  /** Steps whose inputs or results differ, in the new calculation's run order, then any only the old one ran. */
  steps: StepChange[];
  /** Steps with the same inputs and result in both, by rule id. */
  unchangedSteps: string[];
}

export type Compared = { ok: true; comparison: Comparison } | { ok: false; side: 'old' | 'new'; failure: string };

/**
 * Runs one set of facts through the same calculator in two contexts (say this year's pack and last
 * year's) and lists what differs: every figure, then step by step the facts, parameter values (with
 * their sources), intermediate values (before rounding too) and results that are not the same.
 */
export function compareRuns(oldPlan: CalculatorPlan, newPlan: CalculatorPlan, newFacts: unknown, oldFacts: unknown = newFacts): Compared {
  const run = (plan: CalculatorPlan, side: 'old' | 'new') => {
    const facts = side === 'old' ? oldFacts : newFacts;
    const outcome = runCalculator(plan, facts);
    const steps = traceEveryStep(plan, facts);
    if (!outcome.ok || !steps.ok) {
      const failure = !outcome.ok
        ? outcome.failure === 'decode'
          ? `the facts do not decode: ${outcome.issues.map((issue) => `${['facts', ...issue.path].join('.')}: ${issue.message}`).join('; ')}`
          : outcome.failure === 'calculation'
            ? `the calculation failed: ${outcome.message}`
            : 'the calculation timed out'
        : (steps as { error: string }).error;
      return { ok: false as const, side, failure };
    }
    const report = JSON.parse(outcome.json.toString()) as Record<string, unknown>;
    return { ok: true as const, side: { context: { ...plan.context }, rulePackVersion: plan.rulePackVersion, report }, nodes: steps.nodes, beforeRounding: intermediatesBeforeRounding(plan, facts) ?? new Map() };
  };
  const before = run(oldPlan, 'old');
  if (!before.ok) return before;
  const after = run(newPlan, 'new');
  if (!after.ok) return after;

  const steps: StepChange[] = [];
  const unchangedSteps: string[] = [];
  const oldNodes = new Map(before.nodes.map((node) => [node.ruleId, node]));
  const newIds = new Set(after.nodes.map((node) => node.ruleId));
  for (const node of after.nodes) {
    const change = stepChange(oldNodes.get(node.ruleId), node, oldPlan, newPlan, before.beforeRounding, after.beforeRounding);
    if (change) steps.push(change);
    else unchangedSteps.push(node.ruleId);
  }
  for (const node of before.nodes) if (!newIds.has(node.ruleId)) steps.push(stepChange(node, undefined, oldPlan, newPlan, before.beforeRounding, after.beforeRounding)!);

  return {
    ok: true,
    comparison: {
      calculatorId: newPlan.def.id,
      old: before.side,
      new: after.side,
      figures: figureChanges(reportFigures(before.side.report), reportFigures(after.side.report)),
      steps,
      unchangedSteps,
    },
  };
}

/** Figures paired by where they are in the report; one only one report has is shown against nothing. */
function figureChanges(old: Figure[], now: Figure[]): FigureChange[] {
  const oldByPath = new Map(old.map((figure) => [figure.path, figure]));
  const paths = [...new Set([...now.map((figure) => figure.path), ...old.map((figure) => figure.path)])];
  const newByPath = new Map(now.map((figure) => [figure.path, figure]));
  return paths.map((path) => {
    const before = oldByPath.get(path);
    const after = newByPath.get(path);
    const oldValue = before?.value ?? null;
    const newValue = after?.value ?? null;
    const differenceCents = isMoney(oldValue) && isMoney(newValue) ? newValue.cents - oldValue.cents : null;
    return { figure: path, label: (after ?? before)!.label, old: oldValue, new: newValue, differenceCents, changed: canonical(oldValue) !== canonical(newValue) };
  });
}

function stepChange(
  old: TraceNode | undefined,
  now: TraceNode | undefined,
  oldPlan: CalculatorPlan,
  newPlan: CalculatorPlan,
  oldBeforeRounding: BeforeRounding,
  newBeforeRounding: BeforeRounding,
): StepChange | undefined {
  const differences = <T>(before: Record<string, T>, after: Record<string, T>): Difference<T>[] =>
    [...new Set([...Object.keys(after), ...Object.keys(before)])]
      .filter((name) => canonical(before[name]) !== canonical(after[name]))
      .map((name) => ({ name, old: before[name] ?? null, new: after[name] ?? null }));
  const intermediateOf = (node: TraceNode | undefined, amounts: BeforeRounding) =>
    Object.fromEntries(Object.entries(node?.inputs.intermediate ?? {}).map(([name, value]) => [name, { value, beforeRounding: amounts.get(node!.ruleId)?.[name] ?? null }]));
  const parametersOf = (node: TraceNode | undefined, plan: CalculatorPlan) =>
    Object.fromEntries(Object.entries(node?.inputs.parameters ?? {}).map(([id, read]) => [id, parameterValue(read, plan)]));
  const change: StepChange = {
    ruleId: (now ?? old)!.ruleId,
    title: (now ?? old)!.title,
    ranIn: old && now ? 'both' : now ? 'new' : 'old',
    facts: differences(old?.inputs.facts ?? {}, now?.inputs.facts ?? {}),
    parameters: differences(parametersOf(old, oldPlan), parametersOf(now, newPlan)).map((difference) => withOtherRows(difference, oldPlan, newPlan)),
    intermediate: differences(intermediateOf(old, oldBeforeRounding), intermediateOf(now, newBeforeRounding)),
    beforeRounding: null,
    result: null,
  };
  const oldBefore = old?.inputs.beforeRounding ?? null;
  const newBefore = now?.inputs.beforeRounding ?? null;
  if (oldBefore !== newBefore) change.beforeRounding = { name: 'beforeRounding', old: oldBefore, new: newBefore };
  if (canonical(old?.result ?? null) !== canonical(now?.result ?? null)) change.result = { name: 'result', old: old?.result ?? null, new: now?.result ?? null };
  const changed = change.ranIn !== 'both' || change.facts.length + change.parameters.length + change.intermediate.length > 0 || change.beforeRounding || change.result;
  return changed ? change : undefined;
}

/** Adds, for a table read in both calculations, whether the rows other than the matched ones are the same. */
function withOtherRows(difference: Difference<ParameterValue>, oldPlan: CalculatorPlan, newPlan: CalculatorPlan): ParameterDifference {
  const { old, new: now } = difference;
  if (old?.matchedRow === undefined || now?.matchedRow === undefined) return difference;
  const oldRows = rowsInForce(oldPlan, difference.name, old);
  const newRows = rowsInForce(newPlan, difference.name, now);
  if (!oldRows || !newRows) return difference;
  const matched = new Set([old.matchedRow, now.matchedRow]);
  const others = (rows: readonly unknown[]) => rows.filter((_, index) => !matched.has(index + 1)).map((row) => canonical(row));
  const changed = oldRows.length !== newRows.length || canonical(others(oldRows)) !== canonical(others(newRows));
  return { ...difference, otherRows: changed ? 'changed' : 'same' };
}

/** The rows of the table value a step read, found in its pack by the value's effective period. */
function rowsInForce(plan: CalculatorPlan, parameterId: string, read: ParameterValue): readonly unknown[] | undefined {
  const parameter = plan.pack.parameters.find((candidate) => candidate.id === parameterId);
  const value = parameter?.values.find(
    (candidate) => candidate.effectivePeriod.from === read.effectivePeriod.from && (candidate.effectivePeriod.toExclusive ?? null) === read.effectivePeriod.toExclusive,
  );
  return value?.rows;
}

/** A parameter read as the trace shows it, with its source's reference and title from the pack. */
function parameterValue(read: ParameterTrace, plan: CalculatorPlan): ParameterValue {
  const source = plan.pack.sources.find((candidate) => candidate.id === read.source);
  const { title, unit, value, matchedRow, row, amountBelowRow, effectivePeriod } = read;
  return {
    title,
    unit,
    ...(value !== undefined ? { value } : {}),
    ...(matchedRow !== undefined ? { matchedRow, row: row ?? {} } : {}),
    ...(amountBelowRow !== undefined ? { amountBelowRow } : {}),
    effectivePeriod: { from: effectivePeriod.from, toExclusive: effectivePeriod.toExclusive ?? null },
    source: { id: read.source, reference: source?.reference ?? null, title: source?.title ?? null },
  };
}
