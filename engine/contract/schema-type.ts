/** A JSON Schema (2020-12) node, as written here. */
export type JsonSchema = Record<string, unknown>;

/** Where the schemas of the contract's shapes sit in an API description; `$ref`s point there by name. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** A reference to a named contract schema. */
export function ref<const Name extends string>(name: Name): { $ref: `${typeof SCHEMA_REF_PREFIX}${Name}` } {
  return { $ref: `${SCHEMA_REF_PREFIX}${name}` };
}

/** A closed object schema; every property is required unless `required` says otherwise. */
export function object<const Properties extends Record<string, JsonSchema>, const Required extends readonly (keyof Properties & string)[] = (keyof Properties & string)[]>(
  properties: Properties,
  required?: Required,
): { type: 'object'; required: Required; additionalProperties: false; properties: Properties } {
  return { type: 'object', required: (required ?? Object.keys(properties)) as Required, additionalProperties: false, properties };
}

/** A closed object schema with a constant `_tag` first. */
export function tagged<const Tag extends string, const Properties extends Record<string, JsonSchema>, const Required extends readonly (keyof Properties & string)[] = (keyof Properties & string)[]>(
  tag: Tag,
  properties: Properties,
  required?: Required,
): { type: 'object'; required: ['_tag', ...Required]; additionalProperties: false; properties: { _tag: { const: Tag } } & Properties } {
  const names = (required ?? Object.keys(properties)) as Required;
  return { type: 'object', required: ['_tag', ...names], additionalProperties: false, properties: { _tag: { const: tag }, ...properties } };
}

/**
 * The TypeScript type of the JSON a schema accepts, for the subset of JSON Schema the contract uses:
 * `type`, `const`, `enum`, `oneOf`, `properties` with `required`, `additionalProperties`, `items`,
 * and `$ref`s to other schemas of `Named` by name. So a shape is written once, as its schema.
 */
export type SchemaType<Schema, Named> = Schema extends { $ref: `${typeof SCHEMA_REF_PREFIX}${infer Name}` }
  ? Name extends keyof Named
    ? SchemaType<Named[Name], Named>
    : never
  : Schema extends { const: infer Value }
    ? Value
    : Schema extends { enum: readonly (infer Value)[] }
      ? Value
      : Schema extends { oneOf: readonly (infer Choice)[] }
        ? SchemaType<Choice, Named>
        : Schema extends { type: 'object' }
          ? ObjectType<Schema, Named>
          : Schema extends { type: 'array'; items: infer Item }
            ? SchemaType<Item, Named>[]
            : Schema extends { type: infer Name }
              ? PrimitiveType<Name extends readonly (infer Each)[] ? Each : Name>
              : unknown;

type PrimitiveType<Name> = Name extends 'string'
  ? string
  : Name extends 'integer' | 'number'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'object'
          ? Record<string, unknown>
          : Name extends 'array'
            ? unknown[]
            : never;

type RequiredNames<Schema> = Schema extends { required: readonly (infer Name)[] } ? Name : never;

type ObjectType<Schema, Named> = Schema extends { properties: infer Properties }
  ? Flatten<
      { [Key in keyof Properties & RequiredNames<Schema>]: SchemaType<Properties[Key], Named> } & {
        [Key in Exclude<keyof Properties, RequiredNames<Schema>>]?: SchemaType<Properties[Key], Named>;
      }
    >
  : Schema extends { additionalProperties: infer Value extends JsonSchema }
    ? Record<string, SchemaType<Value, Named>>
    : Record<string, unknown>;

type Flatten<T> = { [Key in keyof T]: T[Key] };
