import type { Value } from '../expressions/values.ts';
import type { ReportObjectTemplate } from '../model/pack.ts';
import { jsonWriterOf } from './report-json-values.ts';
import { shapeAt, type CalculatorPlan } from './plan.ts';
import { encoderOf } from './shapes.ts';

/** One field of a report object, with everything looked up once per plan rather than once per run. */
export type ReportField = { name: string; key: string } & (
  | { kind: 'object'; object: CompiledReportObject }
  | { kind: 'money'; read: (values: readonly Value[]) => Value }
  | { kind: 'fact'; read: (values: readonly Value[]) => Value; encode: (value: Value) => unknown; writeJson: (value: Value) => string }
  | { kind: 'trace'; step: number }
  | { kind: 'components'; step: number }
  | { kind: 'version' }
);

export interface CompiledReportObject {
  tag: string;
  /** `{"_tag":"…"`, the start of the object's JSON. */
  head: string;
  fields: ReportField[];
}

const compiled = new Map<CalculatorPlan, CompiledReportObject>();

/** The plan's report template, compiled: fact paths resolved to slots, encoders chosen. */
export function compiledReport(plan: CalculatorPlan): CompiledReportObject {
  let found = compiled.get(plan);
  if (!found) {
    found = compileObject(plan, plan.report);
    compiled.set(plan, found);
  }
  return found;
}

function compileObject(plan: CalculatorPlan, template: ReportObjectTemplate): CompiledReportObject {
  const currency = plan.pack.currency;
  const fields = Object.entries(template.fields).map(([name, field]): ReportField => {
    const base = { name, key: `,${JSON.stringify(name)}:` };
    if ('fields' in field) return { ...base, kind: 'object', object: compileObject(plan, field) };
    if ('money' in field) return { ...base, kind: 'money', read: reader(plan, field.money) };
    if ('fact' in field) {
      const shape = shapeAt(plan.facts, field.fact)!;
      return { ...base, kind: 'fact', read: reader(plan, field.fact), encode: encoderOf(shape, currency), writeJson: jsonWriterOf(shape, currency) };
    }
    if ('trace' in field) return { ...base, kind: 'trace', step: plan.stepOfFact.get(field.trace)! };
    if ('ledgerComponents' in field) return { ...base, kind: 'components', step: plan.stepOfFact.get(field.ledgerComponents)! };
    return { ...base, kind: 'version' };
  });
  return { tag: template.tag, head: `{"_tag":${JSON.stringify(template.tag)}`, fields };
}

/** Reads a dotted fact path (`grossPay.period`) from a run's fact slots. */
function reader(plan: CalculatorPlan, path: string): (values: readonly Value[]) => Value {
  const [root, ...fields] = path.split('.');
  const slot = plan.slotOf.get(root!)!;
  if (fields.length === 0) return (values) => values[slot]!;
  return (values) => {
    let value = values[slot]!;
    for (const field of fields) value = (value as Record<string, Value>)[field]!;
    return value;
  };
}
