import type { SourceRef } from '../contract/shapes.ts';
import { RowValue, TableValue, type Value } from '../expressions/values.ts';
import { isDecimal } from '../money/decimal.ts';
import type { CalculatorPlan, PlanStep } from '../run/plan.ts';
import type { StepRecord } from '../run/record.ts';
import type { ReportRun } from './fields.ts';
import { decimalText, jsonText as text } from './json-text.ts';

/**
 * The report of a run as JSON text: the one form a report takes, for the service and the tools alike
 * (whoever wants objects parses it). Written from text prepared with the plan, each trace node once
 * however often the report refers to it; the shapes are the contract's (`CONTRACT_SCHEMAS`). All of
 * it is ASCII (`jsonText`), so the text is its own UTF-8 bytes.
 */
export function writeReport(plan: CalculatorPlan, values: readonly Value[], records: readonly StepRecord[]): string {
  const nodes: (string | undefined)[] = new Array(plan.steps.length);
  const run: ReportRun = {
    values,
    records,
    trace: (index) => (nodes[index] ??= traceNode(plan.steps[index]!, values, records[index]!, run)),
  };
  return plan.writeReport(run);
}

function traceNode(step: PlanStep, values: readonly Value[], record: StepRecord, run: ReportRun): string {
  const parts = step.traceText;
  let out = parts.head;
  for (let index = 0; index < parts.facts.length; index++) {
    const fact = parts.facts[index]!;
    out += fact.key + fact.write(values[step.inputSlots[index]!]!);
  }
  out += `},"parameters":{${parameterEntries(step, record.reads)}}`;
  let intermediate = '';
  const lets = record.lets;
  for (let slot = 0; slot < lets.length; slot++) {
    const value = lets[slot];
    if (value === undefined || value instanceof TableValue || value instanceof RowValue) continue;
    intermediate += `${intermediate ? ',' : ''}${parts.letKeys[slot]!}${isDecimal(value) ? decimalText(value) : text(value)}`;
  }
  if (intermediate) out += `,"intermediate":{${intermediate}}`;
  const result = values[step.outputSlot]!;
  if (isDecimal(record.raw) && isDecimal(result) && !record.raw.eq(result)) out += `,"beforeRounding":${decimalText(record.raw)}`;
  let children = '';
  for (const child of step.childSteps) children += `${children ? ',' : ''}${run.trace(child)}`;
  return `${out}},"result":${parts.result(result)}${parts.rounding}${sourcesJson(step, record)},"children":[${children}]}`;
}

/**
 * The `parameters` entries of a trace node. As with object keys, the first read of a parameter fixes
 * its position and the last read gives its entry. A rule reads a handful of values, so the reads are
 * scanned again rather than gathered in a map, which every node of every report would allocate.
 */
export function parameterEntries(step: PlanStep, reads: StepRecord['reads']): string {
  const parts = step.traceText;
  let entries = '';
  next: for (let index = 0; index < reads.length; index++) {
    const id = step.parameters[reads[index]!.parameterIndex]!.id;
    for (let earlier = 0; earlier < index; earlier++) if (step.parameters[reads[earlier]!.parameterIndex]!.id === id) continue next;
    let last = index;
    for (let later = index + 1; later < reads.length; later++) if (step.parameters[reads[later]!.parameterIndex]!.id === id) last = later;
    const read = reads[last]!;
    entries += `${entries ? ',' : ''}${read.row ? parts.rows[read.parameterIndex]![read.row.index]! : parts.parameters[read.parameterIndex]!}`;
  }
  return entries;
}

/** The step's sources: its rule's, then those of the parameter values it read that the rule does not already cite. */
function sourcesJson(step: PlanStep, record: StepRecord): string {
  let sources: readonly SourceRef[] = step.ruleSources;
  // The ids of the sources added, joined: what the JSON of these sources is remembered by.
  let key = '';
  for (const read of record.reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    if (!cites(sources, parameter.source)) {
      sources = [...sources, parameter.source];
      key += `${key ? '|' : ''}${parameter.sourceId}`;
    }
  }
  let json = step.traceText.sources.get(key);
  if (json === undefined) {
    json = text(sources);
    step.traceText.sources.set(key, json);
  }
  return json;
}

/** Whether the list has this source: the same one, or one with its kind, reference and title. */
function cites(sources: readonly SourceRef[], wanted: SourceRef): boolean {
  for (const source of sources) {
    if (source === wanted || (source.kind === wanted.kind && source.reference === wanted.reference && source.title === wanted.title)) return true;
  }
  return false;
}
