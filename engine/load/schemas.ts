import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { pointerSegments } from '../json/pointer.ts';
import { suggest } from '../model/suggest.ts';
import { PRECOMPILED_VALIDATORS } from './precompiled-validators.ts';
// Imported rather than read from disk, so that a bundle of the engine carries its schemas with it.
import calculatorSchema from '../schema/calculator.schema.json' with { type: 'json' };
import definitionsSchema from '../schema/definitions.schema.json' with { type: 'json' };
import examplesSchema from '../schema/examples.schema.json' with { type: 'json' };
import factsSchema from '../schema/facts.schema.json' with { type: 'json' };
import packSchema from '../schema/pack.schema.json' with { type: 'json' };
import parameterSchema from '../schema/parameter.schema.json' with { type: 'json' };
import ruleSchema from '../schema/rule.schema.json' with { type: 'json' };
import servingSchema from '../schema/serving.schema.json' with { type: 'json' };
import sourcesSchema from '../schema/sources.schema.json' with { type: 'json' };

/** The kinds of file a pack folder holds, each with its JSON Schema in engine/schema/. */
export const PACK_FILE_KINDS = ['pack', 'sources', 'facts', 'parameter', 'rule', 'calculator', 'examples'] as const;
export type PackFileKind = (typeof PACK_FILE_KINDS)[number];

const SCHEMAS: Record<PackFileKind, object> = {
  pack: packSchema,
  sources: sourcesSchema,
  facts: factsSchema,
  parameter: parameterSchema,
  rule: ruleSchema,
  calculator: calculatorSchema,
  examples: examplesSchema,
};

/**
 * The validators: one per kind of pack file, `fact` for one entry of facts.yaml, and `serving` for
 * the serving.yaml beside the packs.
 */
export const PACK_VALIDATOR_NAMES = [...PACK_FILE_KINDS, 'fact', 'serving'] as const;
type ValidatorName = (typeof PACK_VALIDATOR_NAMES)[number];

/**
 * An Ajv instance holding every pack-format schema under its validator's name. `code` lets the
 * build ask for source code, which it compiles ahead of time (see precompiled-validators.ts).
 */
export function createPackSchemaAjv(code: { source?: boolean; esm?: boolean } = {}): Ajv2020 {
  // Pack files are checked once, at load: code that compiles fast matters more than code that runs fast.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, code: { optimize: false, ...code } });
  ajv.addSchema(definitionsSchema, 'definitions.schema.json');
  for (const kind of PACK_FILE_KINDS) ajv.addSchema(SCHEMAS[kind], kind);
  ajv.addSchema(factsSchema.properties.facts.items, 'fact');
  ajv.addSchema(servingSchema, 'serving');
  return ajv;
}

let validators: Map<ValidatorName, ValidateFunction> | undefined;

/** The validators, compiled ahead of time when this is a build, else compiled once per process. */
function packValidators(): Map<ValidatorName, ValidateFunction> {
  if (validators) return validators;
  if (PRECOMPILED_VALIDATORS) {
    validators = new Map(PACK_VALIDATOR_NAMES.map((name) => [name, PRECOMPILED_VALIDATORS![name] as ValidateFunction]));
  } else {
    const ajv = createPackSchemaAjv();
    validators = new Map(PACK_VALIDATOR_NAMES.map((name) => [name, ajv.getSchema(name)!]));
  }
  return validators;
}

/** True when one entry of facts.yaml is well formed, so its shape can be trusted. */
export function isWellFormedFact(value: unknown): boolean {
  return packValidators().get('fact')!(value) === true;
}

/** What a JSON Schema type is called in a pack file, with how it is written. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  array: 'a list (`[a, b]`, or one `- item` a line)',
  object: 'a mapping (`key: value` lines, or `{ key: value }`)',
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'empty',
};

/** Most schema problems reported for one file; past it, one line says how many more there are. */
const MAX_PROBLEMS_PER_FILE = 50;

/** A schema problem: where (as a path into the document) and what, in an analyst's words. */
export interface SchemaProblem {
  path: (string | number)[];
  /** True when the location is a key (an unknown key), not a value. */
  atKey: boolean;
  message: string;
}

/** Validates one parsed file against the schema of its kind; returns every problem. */
export function checkPackFile(kind: PackFileKind | 'serving', value: unknown): SchemaProblem[] {
  const validate = packValidators().get(kind)!;
  if (validate(value)) return [];
  return describeErrors(validate.errors ?? []);
}

function describeErrors(errors: ErrorObject[]): SchemaProblem[] {
  // A failed anyOf/oneOf reports every branch's complaint; keep one message for the whole choice.
  // Choices are indexed by where they are, so a file with thousands of errors is still quick.
  const choicesAt = new Map<string, { error: ErrorObject; index: number }[]>();
  errors.forEach((error, index) => {
    if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return;
    choicesAt.set(error.instancePath, [...(choicesAt.get(error.instancePath) ?? []), { error, index }]);
  });
  // Ajv reports a choice after its branches, so at one place the last choice reported is the outermost.
  const insideChoice = (error: ErrorObject, index: number) => {
    const segments = error.instancePath.split('/');
    for (let length = segments.length; length >= 1; length--) {
      const at = segments.slice(0, length).join('/');
      for (const choice of choicesAt.get(at) ?? []) {
        if (choice.error === error) continue;
        if (at === error.instancePath && index < choice.index) return true;
        if (error.schemaPath.startsWith(choice.error.schemaPath.replace(/\/(anyOf|oneOf)$/, '/$1/'))) return true;
      }
    }
    return false;
  };
  // A misspelt required key shows up twice, as unknown and as missing; the unknown key's "did you mean" says it all.
  const unknownKeysAt = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword === 'additionalProperties') unknownKeysAt.set(error.instancePath, [...(unknownKeysAt.get(error.instancePath) ?? []), String(error.params.additionalProperty)]);
  }
  const misspelt = (error: ErrorObject) =>
    error.keyword === 'required' &&
    (unknownKeysAt.get(error.instancePath) ?? []).some((key) => suggest(key, [String(error.params.missingProperty)]) !== undefined);
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const [index, error] of errors.entries()) {
    if (error.keyword === 'if' || insideChoice(error, index) || misspelt(error)) continue;
    const path = pointerToPath(error.instancePath);
    const where = path.length === 0 ? 'the file' : `\`${renderPath(path)}\``;
    let problem: SchemaProblem;
    switch (error.keyword) {
      case 'additionalProperties': {
        const key = String(error.params.additionalProperty);
        const known = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
        const hint = suggest(key, known);
        problem = { path: [...path, key], atKey: true, message: `unknown key \`${key}\`${hint ? `; did you mean \`${hint}\`?` : ''}${known.length ? ` (allowed: ${known.join(', ')})` : ''}` };
        break;
      }
      case 'required':
        problem = { path, atKey: false, message: `${where} is missing the required key \`${String(error.params.missingProperty)}\`` };
        break;
      case 'enum':
        problem = { path, atKey: false, message: `${where} must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}` };
        break;
      case 'const':
        problem = { path, atKey: false, message: `${where} must be ${JSON.stringify(error.params.allowedValue)}` };
        break;
      case 'pattern': {
        const description = (error.parentSchema as { description?: string })?.description;
        problem = { path, atKey: false, message: `${where} is not well formed${description ? `: ${description}` : ` (expected the pattern ${String(error.params.pattern)})`}` };
        break;
      }
      case 'anyOf':
      case 'oneOf': {
        const schema = error.parentSchema as { description?: string; oneOf?: { required?: string[] }[] };
        const exclusive = schema.oneOf?.every((branch) => branch.required && Object.keys(branch).length === 1);
        const message = exclusive
          ? `${where} needs exactly one of ${schema.oneOf!.map((branch) => `\`${branch.required![0]}\``).join(' or ')}`
          : `${where} is not valid here${schema.description ? `: ${schema.description}` : ''}`;
        problem = { path, atKey: false, message };
        break;
      }
      case 'type': {
        const wanted = ([] as string[]).concat(error.params.type as string | string[]).map((type) => TYPE_WORDS[type] ?? type);
        problem = { path, atKey: false, message: `${where} must be ${wanted.join(' or ')}` };
        break;
      }
      default:
        problem = { path, atKey: false, message: `${where} ${error.message ?? 'is not valid'}` };
    }
    const key = `${problem.path.join('/')}|${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  if (problems.length > MAX_PROBLEMS_PER_FILE) {
    const more = problems.length - MAX_PROBLEMS_PER_FILE;
    return [...problems.slice(0, MAX_PROBLEMS_PER_FILE), { path: [], atKey: false, message: `and ${more} more schema ${more === 1 ? 'problem' : 'problems'} in this file` }];
  }
  return problems;
}

/** A pointer's segments as a path into the YAML: array indexes as numbers. */
function pointerToPath(pointer: string): (string | number)[] {
  return pointerSegments(pointer).map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** `values[0].effectivePeriod.from` from a path. */
export function renderPath(path: readonly (string | number)[]): string {
  return path.map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`)).join('');
}
