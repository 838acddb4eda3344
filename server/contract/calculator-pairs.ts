import type { Catalog, CalculatorPlan, JsonSchema } from '../../engine/index.ts';

/**
 * Which facts shape and which report belong to which calculator, said in the API description
 * itself: per calculator a `<calculatorId>.RunRequest` (its facts shape) and a
 * `<calculatorId>.RunResponse` (its report), so a reader, a validator or a generated client can
 * follow the calculator from the path to the body and back. Keyed by calculator id, so that typed
 * clients derive the pairing from the names alone.
 */
export function requestSchemaName(calculatorId: string): string {
  return `${calculatorId}.RunRequest`;
}

export function responseSchemaName(calculatorId: string): string {
  return `${calculatorId}.RunResponse`;
}

/** The first plan of each calculator id, in catalog order: facts and report shapes are the same in every year it serves. */
export function calculatorsById(catalog: Catalog): CalculatorPlan[] {
  const seen = new Map<string, CalculatorPlan>();
  for (const plan of catalog.plans) if (!seen.has(plan.def.id)) seen.set(plan.def.id, plan);
  return [...seen.values()];
}

/** An example request for a calculator, from the example values its pack gives its input facts. */
export function exampleRequest(plan: CalculatorPlan): { facts: Record<string, unknown> } | undefined {
  const facts: Record<string, unknown> = {};
  for (const fact of plan.inputFacts) {
    if (fact.example === undefined) return undefined;
    facts[fact.id] = fact.example;
  }
  return { facts };
}

/** The per-calculator request and response schemas. */
export function calculatorPairSchemas(
  catalog: Catalog,
  ref: (name: string) => JsonSchema,
  runRequest: (facts: JsonSchema) => JsonSchema,
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const plan of calculatorsById(catalog)) {
    schemas[requestSchemaName(plan.def.id)] = {
      ...runRequest(ref(plan.def.factsSchemaName)),
      description: `A request to ${plan.def.id}: facts of shape ${plan.def.factsSchemaName}.`,
    };
    schemas[responseSchemaName(plan.def.id)] = {
      description: `The answer of ${plan.def.id}; its report: ${plan.def.reportSchemaName}.`,
      allOf: [ref('AnyCalculatorRunResponse'), { type: 'object', required: ['report'], properties: { report: ref(plan.def.reportSchemaName) } }],
    };
  }
  return schemas;
}
