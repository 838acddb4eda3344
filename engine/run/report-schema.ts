import type { ReportObjectTemplate } from '../model/pack.ts';
import type { CalculatorPlan } from './plan.ts';
import { shapeAt } from './plan.ts';
import { jsonSchemaOf, type JsonSchema } from './shapes.ts';

/** Names of the shared shapes a report schema refers to; the caller says how to reference them. */
export type SharedShape = 'Money' | 'TraceNode' | 'LedgerComponent';

/**
 * JSON Schemas of the objects a calculator's report is made of, one per `_tag`, derived from the
 * pack's report template so that the API description can never disagree with what is returned.
 */
export function reportSchemas(plan: CalculatorPlan, ref: (name: string) => JsonSchema): Map<string, JsonSchema> {
  const schemas = new Map<string, JsonSchema>();
  const objectSchema = (template: ReportObjectTemplate): JsonSchema => {
    const properties: Record<string, JsonSchema> = { _tag: { const: template.tag } };
    for (const [name, field] of Object.entries(template.fields)) {
      if ('fields' in field) {
        schemas.set(field.tag, objectSchema(field));
        properties[name] = ref(field.tag);
      } else if ('money' in field) properties[name] = ref('Money');
      else if ('fact' in field) properties[name] = jsonSchemaOf(shapeAt(plan.facts, field.fact)!, plan.pack.currency);
      else if ('trace' in field) properties[name] = ref('TraceNode');
      else if ('ledgerComponents' in field) properties[name] = { type: 'array', items: ref('LedgerComponent') };
      else properties[name] = { const: plan.rulePackVersion };
    }
    return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
  };
  schemas.set(plan.report.tag, objectSchema(plan.report));
  return schemas;
}
