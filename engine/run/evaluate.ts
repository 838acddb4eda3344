import { performance } from 'node:perf_hooks';
import { EvaluationFailure, TableValue, type Scope, type Value } from '../expressions/values.ts';
import { compareDecimals, isDecimal, ZERO, type Decimal } from '../money/decimal.ts';
import { CLOSE_BRACKET, COMMA, JsonBytes, OPEN_BRACKET } from '../json/json-bytes.ts';
import { writeReport } from '../trace/write.ts';
import type { InputIssue } from './decode.ts';
import type { CalculatorPlan, PlanStep } from './plan.ts';
import type { ComponentResult, StepRecord } from '../trace/record.ts';
import { beyondExactCents } from '../contract/fact-shapes.ts';

/**
 * What running a calculator can come to. Only `ok` carries a report: its JSON, in ASCII bytes (so
 * also its UTF-8; `json.toString()` for the text), inside the frame the run was asked for.
 */
export type RunOutcome =
  | { ok: true; json: Buffer }
  | { ok: false; failure: 'decode'; issues: InputIssue[] }
  | { ok: false; failure: 'calculation'; message: string; cause: { ruleId?: string; parameterId?: string; reason: string } }
  | { ok: false; failure: 'timeout' };

export interface RunOptions {
  /** A `performance.now()` time after which the run stops with a timeout. */
  deadline?: number;
  frame?: ReportFrame;
}

/** Bytes written before and after the report, in the same buffer: the service's answer around it. */
export interface ReportFrame {
  before: Uint8Array;
  after: Uint8Array;
}

/** Writes every report, each into a buffer of its own (json-bytes.ts). */
const reportBytes = new JsonBytes();
/** Writes the derived facts of computeFacts, which are parsed at once: small, and never handed out. */
const factBytes = new JsonBytes(1024);

const NO_LETS: Value[] = [];

class Timeout extends Error {}

type Executed = { ok: true; values: Value[]; records: StepRecord[]; plan: CalculatorPlan };
type Failure = Exclude<RunOutcome, { ok: true }>;

/**
 * Decodes the facts, runs the calculator's rules in order and writes the report as JSON (parse it
 * for objects); pure apart from reading the clock for the deadline.
 */
export function runCalculator(plan: CalculatorPlan, facts: unknown, options: RunOptions = {}): RunOutcome {
  const executed = execute(plan, facts, options);
  if (!executed.ok) return executed;
  const out = reportBytes;
  out.reset();
  if (options.frame) out.piece(options.frame.before);
  writeReport(executed.plan, executed.values, executed.records, out);
  if (options.frame) out.piece(options.frame.after);
  return { ok: true, json: out.bytes() };
}

/**
 * For reviewers' tools: by rule id, the `let` values a step rounded, with the exact amount before
 * their rounding where it changed them (a trace shows them rounded; the API's trace has no place for
 * the amounts before, so they come this way).
 */
export function intermediatesBeforeRounding(plan: CalculatorPlan, facts: unknown): Map<string, Record<string, string>> | undefined {
  const executed = execute(plan, facts, {}, true);
  if (!executed.ok) return undefined;
  const found = new Map<string, Record<string, string>>();
  for (const step of executed.plan.steps) {
    const record = executed.records[step.index]!;
    record.letsBeforeRounding?.forEach((amount, slot) => {
      const rounded = record.lets[slot];
      if (isDecimal(amount) && isDecimal(rounded) && compareDecimals(amount, rounded) !== 0) found.set(step.rule.id, { ...found.get(step.rule.id), [step.letNames[slot]!]: amount.toString() });
    });
  }
  return found;
}

/**
 * Runs a calculator and returns the JSON value of every fact it read or derived, by fact id. The
 * derived values are written by the writer the API's reports use (the step's trace result), as one
 * JSON array parsed once, so the worked examples check the very text the API sends.
 */
export function computeFacts(plan: CalculatorPlan, facts: unknown): { ok: true; facts: Map<string, unknown> } | Failure {
  const executed = execute(plan, facts, {});
  if (!executed.ok) return executed;
  const found = new Map<string, unknown>();
  for (const input of plan.inputs) found.set(input.factId, (facts as Record<string, unknown>)[input.factId]);
  const { steps } = executed.plan;
  const out = factBytes;
  out.reset();
  out.byte(OPEN_BRACKET);
  for (let index = 0; index < steps.length; index++) {
    const step = steps[index]!;
    if (index > 0) out.byte(COMMA);
    step.traceText.result(out, executed.values[step.outputSlot]!);
  }
  out.byte(CLOSE_BRACKET);
  const derived = JSON.parse(out.bytes().toString('latin1')) as unknown[];
  for (let index = 0; index < steps.length; index++) found.set(steps[index]!.outputFact.id, derived[index]);
  return { ok: true, facts: found };
}

function execute(calculator: CalculatorPlan, facts: unknown, options: RunOptions, keepBeforeRounding = false): Executed | Failure {
  const issues = calculator.factIssues(facts);
  if (issues.length > 0) return { ok: false, failure: 'decode', issues };
  const plan = calculator.byDate ? planOnDate(calculator.byDate, (facts as Record<string, unknown>)[calculator.byDate.factId] as string) : calculator;
  if (!plan) return { ok: false, failure: 'decode', issues: [outsideYear(calculator)] };
  const values: Value[] = new Array(plan.slotCount);
  for (const input of plan.inputs) values[input.slot] = input.decode((facts as Record<string, unknown>)[input.factId]);
  const records: StepRecord[] = new Array(plan.steps.length);
  let current: PlanStep | undefined;
  try {
    for (const step of plan.steps) {
      current = step;
      if (options.deadline !== undefined && performance.now() > options.deadline) throw new Timeout();
      records[step.index] = evaluateStep(step, values, keepBeforeRounding);
    }
  } catch (error) {
    if (error instanceof Timeout) return { ok: false, failure: 'timeout' };
    if (error instanceof EvaluationFailure) {
      return {
        ok: false,
        failure: 'calculation',
        message: `Rule ${current!.rule.id} could not be evaluated: ${error.reason}.`,
        cause: { ruleId: current!.rule.id, reason: error.reason },
      };
    }
    throw error;
  }
  return { ok: true, values, records, plan };
}

/** The part of a dated calculator's plan whose period holds the day (dates written YYYY-MM-DD compare as text). */
function planOnDate(byDate: NonNullable<CalculatorPlan['byDate']>, day: string): CalculatorPlan | undefined {
  for (const part of byDate.parts) if (part.period.from <= day && day < part.period.toExclusive) return part;
  return undefined;
}

/** The issue of a date outside the tax year of the pack: no value is in effect on it, so no rule may run. */
function outsideYear(calculator: CalculatorPlan): InputIssue {
  const { id, from, toExclusive } = calculator.pack.taxYear;
  return { path: [calculator.byDate!.factId], message: `must be a day of the ${id} tax year this calculation is for, from ${from} and before ${toExclusive}` };
}

function evaluateStep(step: PlanStep, values: Value[], keepBeforeRounding: boolean): StepRecord {
  const record: StepRecord = { raw: null, reads: [], lets: NO_LETS };
  let raw: Value;
  if (step.ledger) {
    const components: ComponentResult[] = [];
    let total = ZERO;
    step.ledger.components.forEach((component, index) => {
      const amount = values[step.ledger!.slots[index]!] as Decimal;
      const status = amount.isZero() ? component.whenZero : 'active';
      if (status === 'active' && component.effect === 'additive') total = total.add(amount);
      if (status === 'active' && component.effect === 'subtractive') total = total.sub(amount);
      components.push({ status, amount });
    });
    record.components = components;
    raw = total;
  } else {
    const inputs = step.inputSlots.map((slot) => values[slot]!);
    const scope: Scope = { facts: inputs, parameters: step.parameters, lets: step.letCount ? new Array(step.letCount) : NO_LETS, reads: record.reads };
    if (keepBeforeRounding && step.letCount) scope.letsBeforeRounding = new Array(step.letCount);
    raw = step.evaluate!(scope);
    record.lets = scope.lets;
    if (scope.letsBeforeRounding) record.letsBeforeRounding = scope.letsBeforeRounding;
  }
  record.raw = raw;
  let result = raw;
  if (isDecimal(raw)) {
    result = step.round(raw);
    if (step.isMoney) {
      if (!result.isInteger()) throw new EvaluationFailure(`the result is a fraction of a cent; the rule needs a rounding mode`);
      if (beyondExactCents(result)) throw new EvaluationFailure('the result is too large to be given exactly in cents');
    }
  } else if (step.isMoney || raw instanceof TableValue) {
    throw new EvaluationFailure('the result is not an amount');
  }
  values[step.outputSlot] = result;
  return record;
}
