import { performance } from 'node:perf_hooks';
import { EvaluationFailure, RowValue, TableValue, type ParameterRead, type ResolvedParameter, type Scope, type TableRow, type Value } from '../expressions/values.ts';
import { isDecimal, ZERO, type Decimal } from '../money/decimal.ts';
import type { ParameterTrace, TraceNode } from '../trace/trace.ts';
import { issuesFromErrors, type InputIssue } from './decode.ts';
import { traceSources, type CalculatorPlan, type PlanStep } from './plan.ts';
import { compiledReport, type CompiledReportObject } from './report-template.ts';
import { beyondExactCents, moneyObject } from './shapes.ts';
import { reportJson } from './report-json.ts';

/** What running a calculator can come to. Only `ok` carries a report. */
export type CalculationOutcome =
  | { ok: true; report: unknown }
  | { ok: false; failure: 'decode'; issues: InputIssue[] }
  | { ok: false; failure: 'calculation'; message: string; cause: { ruleId?: string; parameterId?: string; reason: string } }
  | { ok: false; failure: 'timeout' };

export interface RunOptions {
  /** A `performance.now()` time after which the run stops with a timeout. */
  deadline?: number;
}

/** A ledger component as the API shows it, before its trace is attached. */
export interface ComponentResult {
  id: string;
  label: string;
  effect: string;
  status: 'active' | 'zeroed';
  amount: Decimal;
  fact: string;
}

/** What one rule evaluation left behind for the trace. */
export interface StepRecord {
  raw: Value;
  reads: ParameterRead[];
  lets: Value[];
  components?: ComponentResult[];
}

const NO_LETS: Value[] = [];

class Timeout extends Error {}

type Executed = { ok: true; values: Value[]; records: StepRecord[] };
type Failure = Exclude<CalculationOutcome, { ok: true }>;

/** Decodes the facts and runs the calculator's rules in order; pure apart from reading the clock for the deadline. */
export function runCalculator(plan: CalculatorPlan, facts: unknown, options: RunOptions = {}): CalculationOutcome {
  const executed = execute(plan, facts, options);
  if (!executed.ok) return executed;
  return { ok: true, report: buildReport(plan, executed.values, executed.records) };
}

/**
 * Like runCalculator, but the report comes as its JSON text, written directly from precomputed
 * fragments with each shared trace node serialised once: what the service sends, byte for byte the
 * same as JSON.stringify of runCalculator's report.
 */
export function runCalculatorJson(plan: CalculatorPlan, facts: unknown, options: RunOptions = {}): { ok: true; json: string } | Failure {
  const executed = execute(plan, facts, options);
  if (!executed.ok) return executed;
  return { ok: true, json: reportJson(plan, executed.values, executed.records) };
}

/** Runs a calculator and returns the JSON value of every fact it read or derived, by fact id. */
export function computeFacts(plan: CalculatorPlan, facts: unknown): { ok: true; facts: Map<string, unknown> } | Failure {
  const executed = execute(plan, facts, {});
  if (!executed.ok) return executed;
  const out = new Map<string, unknown>();
  for (const input of plan.inputs) out.set(input.factId, (facts as Record<string, unknown>)[input.factId]);
  for (const step of plan.steps) out.set(step.outputFact.id, step.encodeOutput(executed.values[step.outputSlot]!));
  return { ok: true, facts: out };
}

function execute(plan: CalculatorPlan, facts: unknown, options: RunOptions): Executed | Failure {
  if (!plan.validateFacts(facts)) return { ok: false, failure: 'decode', issues: issuesFromErrors(plan.validateFacts.errors ?? []) };
  const values: Value[] = new Array(plan.slotCount);
  for (const input of plan.inputs) values[input.slot] = input.decode((facts as Record<string, unknown>)[input.factId]);
  const records: StepRecord[] = new Array(plan.steps.length);
  let current: PlanStep | undefined;
  try {
    for (const step of plan.steps) {
      current = step;
      if (options.deadline !== undefined && performance.now() > options.deadline) throw new Timeout();
      records[step.index] = evaluateStep(step, values);
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
  return { ok: true, values, records };
}

function evaluateStep(step: PlanStep, values: Value[]): StepRecord {
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
      components.push({ id: component.id, label: component.label, effect: component.effect, status, amount, fact: component.fact });
    });
    record.components = components;
    raw = total;
  } else {
    const inputs = step.inputSlots.map((slot) => values[slot]!);
    const scope: Scope = { facts: inputs, parameters: step.parameters, lets: step.letCount ? new Array(step.letCount) : NO_LETS, reads: record.reads };
    raw = step.evaluate!(scope);
    record.lets = scope.lets;
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

/** Assembles the report from the calculator's template; trace nodes are built once each and shared. */
function buildReport(plan: CalculatorPlan, values: Value[], records: StepRecord[]): unknown {
  const nodes: (TraceNode | undefined)[] = new Array(plan.steps.length);
  const nodeOf = (index: number): TraceNode => (nodes[index] ??= traceNode(plan, plan.steps[index]!, values, records[index]!, nodeOf));
  const currency = plan.pack.currency;
  const build = (object: CompiledReportObject): Record<string, unknown> => {
    const out: Record<string, unknown> = { _tag: object.tag };
    for (const field of object.fields) {
      switch (field.kind) {
        case 'object':
          out[field.name] = build(field.object);
          break;
        case 'money':
          out[field.name] = moneyObject(field.read(values) as Decimal, currency);
          break;
        case 'fact':
          out[field.name] = field.encode(field.read(values));
          break;
        case 'trace':
          out[field.name] = nodeOf(field.step);
          break;
        case 'components':
          out[field.name] = records[field.step]!.components!.map((component) => ({
            _tag: 'LedgerComponent',
            amount: moneyObject(component.amount, currency),
            effect: component.effect,
            id: component.id,
            label: component.label,
            status: component.status,
            trace: nodeOf(plan.stepOfFact.get(component.fact)!),
          }));
          break;
        case 'version':
          out[field.name] = plan.rulePackVersion;
      }
    }
    return out;
  };
  return build(compiledReport(plan));
}

const parameterTraces = new Map<object, ParameterTrace>();

/** What a trace shows of a parameter value read (or a table row matched); the same object every run. */
function parameterTrace(parameter: ResolvedParameter, row: TableRow | undefined): ParameterTrace {
  const key: object = row ?? parameter;
  let found = parameterTraces.get(key);
  if (!found) {
    const entry: ParameterTrace = { title: parameter.title, unit: parameter.unit, effectivePeriod: parameter.effectivePeriod, source: parameter.sourceId };
    if (row) {
      entry.matchedRow = row.index + 1;
      entry.row = row.display;
      if (row.amountBelow) entry.amountBelowRow = row.amountBelow.div(100).toString();
    } else entry.value = parameter.display;
    found = Object.freeze(entry);
    parameterTraces.set(key, found);
  }
  return found;
}

function traceNode(plan: CalculatorPlan, step: PlanStep, values: Value[], record: StepRecord, nodeOf: (index: number) => TraceNode): TraceNode {
  const facts: Record<string, unknown> = {};
  step.rule.requires.forEach((factId, index) => {
    facts[factId] = step.encodeInputs[index]!(values[step.inputSlots[index]!]!);
  });
  const parameters: Record<string, ParameterTrace> = {};
  const { sources } = traceSources(step, record.reads);
  for (const read of record.reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    parameters[parameter.id] = parameterTrace(parameter, read.row);
  }
  const result = values[step.outputSlot]!;
  const inputs: TraceNode['inputs'] = { facts, parameters };
  // Named intermediate values (`let`), so a reader sees each step of the working; money stays in cents.
  record.lets.forEach((value, slot) => {
    if (value === undefined || value instanceof TableValue || value instanceof RowValue) return;
    (inputs.intermediate ??= {})[step.letNames[slot]!] = isDecimal(value) ? value.toString() : value;
  });
  if (isDecimal(record.raw) && isDecimal(result) && !record.raw.eq(result)) inputs.beforeRounding = record.raw.toString();
  return {
    _tag: 'TraceNode',
    ruleId: step.rule.id,
    title: step.rule.title,
    formula: step.formula,
    inputs,
    result: step.encodeOutput(result),
    rounding: step.roundingName,
    sources,
    children: step.childSteps.map(nodeOf),
  };
}
