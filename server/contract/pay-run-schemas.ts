import { object, ref, type Catalog, type JsonSchema } from '../../engine/index.ts';
import { HELP_QUERY } from './parameters.ts';
import { calculatorsById, responseSchemaName } from './calculator-pairs.ts';

/** A pay run item's id: echoed in its result, so that a payroll system can match results to employees. */
export const PAY_RUN_ITEM_ID: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: "The caller's own id for the item (an employee or payslip id), echoed in its result.",
  'x-expected': 'a string of 1 to 200 characters',
};

/** What every item names before its calculation is checked: its id and its calculator. */
export const PAY_RUN_ITEM_HEAD: JsonSchema = {
  type: 'object',
  required: ['id', 'calculatorId'],
  properties: {
    id: PAY_RUN_ITEM_ID,
    calculatorId: { type: 'string', description: 'The calculator to run, as in the path of calculate.', 'x-expected': 'a calculator id such as au.pay.take-home' },
  },
  'x-expected': 'an object with id, calculatorId and facts',
};

/**
 * The schemas of a pay run, for a catalog: one item schema per calculator (its calculate request,
 * plus the item's id, calculator and help mode), the request as a list of any of them, and the
 * answer as one result per item. `runRequest` builds a calculator's calculate request from its facts
 * schema, so an item takes exactly what calculate takes.
 */
export function payRunSchemas(catalog: Catalog, maxItems: number, runRequest: (facts: JsonSchema) => JsonSchema): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const itemNames: string[] = [];
  for (const plan of calculatorsById(catalog)) {
    const request = runRequest(ref(plan.def.factsSchemaName));
    const name = `${plan.def.id}.PayRunItem`;
    const properties: Record<string, JsonSchema> = {
      id: PAY_RUN_ITEM_ID,
      calculatorId: { const: plan.def.id },
      ...(request.properties as Record<string, JsonSchema>),
      // As calculate's query parameter, without its default: an item without help gets the default.
      help: { enum: HELP_QUERY.schema.enum, description: HELP_QUERY.description },
    };
    schemas[name] = {
      ...object(properties, ['id', 'calculatorId', ...(request.required as string[])]),
      description: `An item of a pay run for ${plan.def.id}: what its calculate request takes, with the item's id.`,
    };
    itemNames.push(name);
  }
  schemas.PayRunItem = { description: 'One calculation of a pay run; its calculatorId says which.', anyOf: itemNames.map(ref) };
  schemas.PayRunRequest = {
    ...object({
      items: { type: 'array', minItems: 1, maxItems, items: ref('PayRunItem'), 'x-expected': `a list of 1 to ${maxItems} items` },
    }),
    description: 'The body of a pay run: its items, each checked and calculated as calculate would.',
    'x-expected': 'a JSON object with items',
  };
  schemas.PayRunItemResult = {
    ...object({
      id: { oneOf: [PAY_RUN_ITEM_ID, { type: 'null' }], description: "The item's id, or null when the item has no usable id." },
      status: { type: 'integer', enum: [200, 400, 429, 503, 504], description: 'The status calculate would have answered for this item.' },
      body: {
        description: "The body calculate would have answered for this item: the calculator's response, or the error.",
        anyOf: [...calculatorsById(catalog).map((plan) => ref(responseSchemaName(plan.def.id))), ref('BadRequestError'), ref('RateLimitedError'), ref('UnavailableError'), ref('TimedOutError')],
      },
    }),
    description: 'The result of one item, in the order of the request.',
  };
  schemas.PayRunResponse = {
    ...object({ items: { type: 'array', items: ref('PayRunItemResult') } }),
    description: 'The results of a pay run, one per item in the order of the request.',
  };
  return schemas;
}

/** The pay run's body as checked before any item is: an object with a list of items of the right length; each item is checked on its own. */
export function payRunEnvelope(request: JsonSchema): JsonSchema {
  const items = (request.properties as { items: JsonSchema }).items;
  return { ...request, properties: { items: { ...items, items: {} } } };
}
