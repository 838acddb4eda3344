import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../../engine/index.ts';

/** The id under which the API's component schemas are known to Ajv. */
const COMPONENTS_ID = 'tax-rules-api:components';

/**
 * Compiles request schemas that refer to the API's component schemas (`#/components/schemas/...`),
 * so validation and the OpenAPI document share one definition of every shape. Compiled once, at boot.
 */
export function createSchemaCompiler(components: Record<string, JsonSchema>): (schema: JsonSchema) => ValidateFunction {
  // The schemas are the service's own, derived from checked packs: no meta-schema check (it would be compiled on every boot).
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } });
  ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'components' });
  // OpenAPI's hint for readers and generators; the oneOf beside it does the validating.
  ajv.addKeyword({ keyword: 'discriminator', schemaType: 'object' });
  ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: components } });
  return (schema) => ajv.compile(rebase(schema) as object);
}

/** Points local component references at the registered components document. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') ? [key, `${COMPONENTS_ID}${value}`] : [key, rebase(value)],
    ),
  );
}

export type { ErrorObject, ValidateFunction };
