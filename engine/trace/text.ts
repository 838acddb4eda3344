import { TableValue, type ResolvedParameter, type TableRow } from '../expressions/values.ts';
import type { FactShape, RuleDef } from '../model/pack.ts';
import { asciiBytes } from '../json/json-bytes.ts';
import { jsonWriterOf, type ValueWriter } from '../json/value-json.ts';
import { jsonText as text } from '../json/json-text.ts';

/**
 * What a step's trace node says that is the same on every run, as JSON encoded once when the plan is
 * built: a report then copies these bytes, not re-escaping titles, formulas and sources.
 */
export interface TraceText {
  /** `{"_tag":"TraceNode","ruleId":…,"title":…,"formula":…,"inputs":{"facts":{` */
  head: Uint8Array;
  /** Key and value writer of each fact the rule requires, in order. */
  facts: { key: Uint8Array; write: ValueWriter }[];
  /** `"id":{…}` of each parameter as its value is written in the pack, by parameter index. */
  parameters: Uint8Array[];
  /** For table parameters, `"id":{…}` with each row as matched, by parameter index then row index. */
  rows: (Uint8Array[] | undefined)[];
  result: ValueWriter;
  /** `,"rounding":…,"sources":` */
  rounding: Uint8Array;
  /** `"name":` of each named intermediate value. */
  letKeys: Uint8Array[];
  /** The `sources` array, by the ids of the sources the values read add to the rule's; filled as they occur. */
  sources: Map<string, Uint8Array>;
}

/** The parts of a step its trace text is made from. */
export interface TraceTextInput {
  rule: RuleDef;
  formula: string;
  roundingName: string;
  /** Undefined where a parameter has no value in effect: the plan then never runs. */
  parameters: readonly (ResolvedParameter | undefined)[];
  requiredShapes: readonly FactShape[];
  outputShape: FactShape;
  letNames: readonly string[];
  currency: string;
}

/** The trace text of a step, made once when its plan is built. */
export function traceText(step: TraceTextInput): TraceText {
  const { rule, currency } = step;
  return {
    head: asciiBytes(`{"_tag":"TraceNode","ruleId":${text(rule.id)},"title":${text(rule.title)},"formula":${text(step.formula)},"inputs":{"facts":{`),
    facts: rule.requires.map((id, index) => ({ key: asciiBytes(`${index > 0 ? ',' : ''}${text(id)}:`), write: jsonWriterOf(step.requiredShapes[index]!, currency) })),
    parameters: step.parameters.map((parameter) => asciiBytes(parameter ? parameterText(parameter, undefined) : '')),
    rows: step.parameters.map((parameter) => (parameter?.value instanceof TableValue ? parameter.value.rows.map((row) => asciiBytes(parameterText(parameter, row))) : undefined)),
    result: jsonWriterOf(step.outputShape, currency),
    rounding: asciiBytes(`,"rounding":${text(step.roundingName)},"sources":`),
    letKeys: step.letNames.map((name) => asciiBytes(`${text(name)}:`)),
    sources: new Map(),
  };
}

/** A parameter value read (or a table row matched) as a trace shows it: the ParameterTrace shape. */
function parameterText(parameter: ResolvedParameter, row: TableRow | undefined): string {
  const entry: Record<string, unknown> = { title: parameter.title, unit: parameter.unit, effectivePeriod: parameter.effectivePeriod, source: parameter.sourceId };
  if (row) {
    entry.matchedRow = row.index + 1;
    entry.row = row.display;
    if (row.amountBelow) entry.amountBelowRow = row.amountBelow.div(100).toString();
  } else entry.value = parameter.display;
  return `${text(parameter.id)}:${text(entry)}`;
}
