import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../../engine/index.ts';

/** The id under which the API's component schemas are known to Ajv. */
const COMPONENTS_ID = 'tax-rules-api:components';

/**
 * Compiles request schemas that refer to the API's component schemas (`#/components/schemas/...`),
 * so validation and the OpenAPI document share one definition of every shape. Each schema is
 * compiled the first time it validates: compiling all of them (every operation's query parameters,
 * the components they refer to) is a large part of a boot, and most are seldom or never used
 * (bench/README.md, "Figures behind the code"). The Ajv instance itself, with its meta-schemas, is
 * made when the first schema compiles.
 */
export function createSchemaCompiler(components: Record<string, JsonSchema>): (schema: JsonSchema) => ValidateFunction {
  let ajv: Ajv2020 | undefined;
  const compiler = () => {
    // The schemas are the service's own, derived from checked packs: no meta-schema check (it would be compiled on every boot).
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false, formats: { date: /^\d{4}-\d{2}-\d{2}$/ } });
    ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
    ajv.addKeyword({ keyword: 'components' });
    // OpenAPI's hint for readers and generators; the oneOf beside it does the validating.
    ajv.addKeyword({ keyword: 'discriminator', schemaType: 'object' });
    ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: components } });
    return ajv;
  };
  return (schema) => compiledOnFirstUse(() => (ajv ?? compiler()).compile(rebase(schema) as object));
}

/** A validator that compiles itself when first called; `errors` are those of its last call, as Ajv's are. */
function compiledOnFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  validate.errors = undefined as ValidateFunction['errors'];
  return validate as ValidateFunction;
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
