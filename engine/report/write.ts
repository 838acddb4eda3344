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
  out += '},"parameters":{';
  // As with object keys: the first read of a parameter fixes its position, the last read gives its entry.
  const entries = new Map<string, string>();
  for (const read of record.reads) {
    const entry = read.row ? parts.rows[read.parameterIndex]![read.row.index]! : parts.parameters[read.parameterIndex]!;
    entries.set(step.parameters[read.parameterIndex]!.id, entry);
  }
  out += [...entries.values()].join(',');
  out += '}';
  let intermediate = '';
  record.lets.forEach((value, slot) => {
    if (value === undefined || value instanceof TableValue || value instanceof RowValue) return;
    intermediate += `${intermediate ? ',' : ''}${parts.letKeys[slot]!}${isDecimal(value) ? decimalText(value) : text(value)}`;
  });
  if (intermediate) out += `,"intermediate":{${intermediate}}`;
  const result = values[step.outputSlot]!;
  if (isDecimal(record.raw) && isDecimal(result) && !record.raw.eq(result)) out += `,"beforeRounding":${decimalText(record.raw)}`;
  out += `},"result":${parts.result(result)}${parts.rounding}${sourcesJson(step, record)},"children":[${step.childSteps.map(run.trace).join(',')}]}`;
  return out;
}

/** The step's sources: its rule's, then those of the parameter values it read that the rule does not already cite. */
function sourcesJson(step: PlanStep, record: StepRecord): string {
  let sources: readonly SourceRef[] = step.ruleSources;
  const added: string[] = [];
  for (const read of record.reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    const known = sources.some((source) => source === parameter.source || (source.kind === parameter.source.kind && source.reference === parameter.source.reference && source.title === parameter.source.title));
    if (!known) {
      sources = [...sources, parameter.source];
      added.push(parameter.sourceId);
    }
  }
  const key = added.join('|');
  let json = step.traceText.sources.get(key);
  if (json === undefined) {
    json = text(sources);
    step.traceText.sources.set(key, json);
  }
  return json;
}
