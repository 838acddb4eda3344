import { RowValue, TableValue, type ResolvedParameter, type TableRow, type Value } from '../expressions/values.ts';
import { isDecimal } from '../money/decimal.ts';
import type { ComponentResult, StepRecord } from './evaluate.ts';
import { traceSources, type CalculatorPlan, type PlanStep } from './plan.ts';
import { jsonWriterOf } from './report-json-values.ts';
import { compiledReport, type CompiledReportObject } from './report-template.ts';

// The service sends every report as JSON, and JSON.stringify of a report with traces costs more than
// the calculation itself: shared trace nodes are written once per reference, and the same titles,
// formulas and sources are escaped on every request. This writer keeps the exact key order and
// output of JSON.stringify (a test checks it byte for byte) while escaping static text once per
// plan and writing each trace node once per report.

const text = JSON.stringify;

interface StepFragments {
  head: string;
  factKeys: string[];
  factWriters: ((value: Value) => string)[];
  resultWriter: (value: Value) => string;
  rounding: string;
  sources: Map<string, string>;
  letKeys: string[];
}

// Plans, steps, parameters and rows live as long as the service: plain Maps, faster than WeakMaps here.
const fragments = new Map<PlanStep, StepFragments>();
const parameterFragments = new Map<object, string>();

function fragmentsOf(plan: CalculatorPlan, step: PlanStep): StepFragments {
  let found = fragments.get(step);
  if (!found) {
    const currency = plan.pack.currency;
    found = {
      head: `{"_tag":"TraceNode","ruleId":${text(step.rule.id)},"title":${text(step.rule.title)},"formula":${text(step.formula)},"inputs":{"facts":{`,
      factKeys: step.rule.requires.map((id) => `${text(id)}:`),
      factWriters: step.rule.requires.map((id) => jsonWriterOf(plan.facts.get(id)!.shape, currency)),
      resultWriter: jsonWriterOf(step.outputFact.shape, currency),
      rounding: `,"rounding":${text(step.roundingName)},"sources":`,
      sources: new Map(),
      letKeys: step.letNames.map((name) => `${text(name)}:`),
    };
    fragments.set(step, found);
  }
  return found;
}

function parameterFragment(parameter: ResolvedParameter, row: TableRow | undefined): string {
  const key: object = row ?? parameter;
  let found = parameterFragments.get(key);
  if (found === undefined) {
    const entry: Record<string, unknown> = { title: parameter.title, unit: parameter.unit, effectivePeriod: parameter.effectivePeriod, source: parameter.sourceId };
    if (row) {
      entry.matchedRow = row.index + 1;
      entry.row = row.display;
      if (row.amountBelow) entry.amountBelowRow = row.amountBelow.div(100).toString();
    } else entry.value = parameter.display;
    found = `${text(parameter.id)}:${text(entry)}`;
    parameterFragments.set(key, found);
  }
  return found;
}

/** The report of a run, as JSON text. */
export function reportJson(plan: CalculatorPlan, values: Value[], records: StepRecord[]): string {
  const nodes: (string | undefined)[] = new Array(plan.steps.length);
  const nodeOf = (index: number): string => (nodes[index] ??= nodeJson(plan, plan.steps[index]!, values, records[index]!, nodeOf));
  const money = moneyWriter(plan.pack.currency);
  const write = (object: CompiledReportObject): string => {
    let out = object.head;
    for (const field of object.fields) {
      out += field.key;
      switch (field.kind) {
        case 'object':
          out += write(field.object);
          break;
        case 'money':
          out += money(field.read(values));
          break;
        case 'fact':
          out += field.writeJson(field.read(values));
          break;
        case 'trace':
          out += nodeOf(field.step);
          break;
        case 'components': {
          const components = records[field.step]!.components!;
          out += `[${components.map((component) => componentJson(component, money, nodeOf(plan.stepOfFact.get(component.fact)!))).join(',')}]`;
          break;
        }
        case 'version':
          out += text(plan.rulePackVersion);
      }
    }
    return `${out}}`;
  };
  return write(compiledReport(plan));
}

const moneyWriters = new Map<string, (value: Value) => string>();
function moneyWriter(currency: string): (value: Value) => string {
  let found = moneyWriters.get(currency);
  if (!found) {
    found = jsonWriterOf({ type: 'money' }, currency);
    moneyWriters.set(currency, found);
  }
  return found;
}

function componentJson(component: ComponentResult, money: (value: Value) => string, trace: string): string {
  return `{"_tag":"LedgerComponent","amount":${money(component.amount)},"effect":${text(component.effect)},"id":${text(component.id)},"label":${text(component.label)},"status":${text(component.status)},"trace":${trace}}`;
}

function nodeJson(plan: CalculatorPlan, step: PlanStep, values: Value[], record: StepRecord, nodeOf: (index: number) => string): string {
  const parts = fragmentsOf(plan, step);
  let out = parts.head;
  for (let index = 0; index < parts.factKeys.length; index++) {
    if (index > 0) out += ',';
    out += parts.factKeys[index]! + parts.factWriters[index]!(values[step.inputSlots[index]!]!);
  }
  out += '},"parameters":{';
  // Like object keys: first read fixes the position, the last read of a parameter gives its entry.
  const entries = new Map<string, string>();
  for (const read of record.reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    entries.set(parameter.id, parameterFragment(parameter, read.row));
  }
  out += [...entries.values()].join(',');
  out += '}';
  let intermediate = '';
  record.lets.forEach((value, slot) => {
    if (value === undefined || value instanceof TableValue || value instanceof RowValue) return;
    intermediate += `${intermediate ? ',' : ''}${parts.letKeys[slot]!}${text(isDecimal(value) ? value.toString() : value)}`;
  });
  if (intermediate) out += `,"intermediate":{${intermediate}}`;
  const result = values[step.outputSlot]!;
  if (isDecimal(record.raw) && isDecimal(result) && !record.raw.eq(result)) out += `,"beforeRounding":${text(record.raw.toString())}`;
  const { sources, added } = traceSources(step, record.reads);
  const sourcesKey = added.join('|');
  let sourcesJson = parts.sources.get(sourcesKey);
  if (sourcesJson === undefined) {
    sourcesJson = text(sources);
    parts.sources.set(sourcesKey, sourcesJson);
  }
  out += `},"result":${parts.resultWriter(result)}${parts.rounding}${sourcesJson},"children":[${step.childSteps.map(nodeOf).join(',')}]}`;
  return out;
}
