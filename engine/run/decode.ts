import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../contract/schema-type.ts';
import { pointerSegments } from '../json/pointer.ts';

/** One problem with a request's input, located by its JSON path; never quotes the value received. */
export interface InputIssue {
  path: string[];
  message: string;
}

let ajv: Ajv2020 | undefined;

/** The Ajv instance for fact schemas: every error collected, `x-expected` known as an annotation. */
export function factsAjv(): Ajv2020 {
  if (!ajv) {
    // Fact schemas are made by the engine from pack data already checked at load: checking them against
    // JSON Schema's own meta-schema as well would compile that meta-schema on every boot.
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateSchema: false });
    ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
    ajv.addFormat('date', isCalendarDate);
  }
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

/** Compiles a schema once; calculators that take the same facts share one validator. */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = factsAjv().compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * Checks facts against a schema, compiled the first time facts are checked: compiling every
 * calculator's schema when the packs load costs a boot a measurable share (bench/README.md,
 * "Figures behind the code"). No issues means valid.
 */
export function factsChecker(schema: JsonSchema): (facts: unknown) => InputIssue[] {
  let validate: ValidateFunction | undefined;
  return (facts) => {
    validate ??= compileSchema(schema);
    return validate(facts) ? [] : issuesFromErrors(validate.errors ?? []);
  };
}

/**
 * Turns Ajv errors into input issues: one per path, saying what was expected there.
 * Unknown keys are reported at their parent, naming the allowed keys, because the key itself is input.
 */
export function issuesFromErrors(errors: readonly ErrorObject[], prefix: readonly string[] = []): InputIssue[] {
  const issues: InputIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = [...prefix, ...pointerSegments(error.instancePath)];
    const schema = (error.parentSchema ?? {}) as { 'x-expected'?: string; properties?: Record<string, { 'x-expected'?: string }> };
    let issue: InputIssue;
    if (error.keyword === 'required') {
      const field = String(error.params.missingProperty);
      const expected = schema.properties?.[field]?.['x-expected'];
      issue = { path: [...path, field], message: `is required${expected ? `: expected ${expected}` : ''}` };
    } else if (error.keyword === 'additionalProperties') {
      const allowed = Object.keys(schema.properties ?? {});
      issue = { path, message: `has a field that is not allowed here; the allowed fields are ${allowed.join(', ')}` };
    } else {
      issue = { path, message: `expected ${schema['x-expected'] ?? 'a different value'}` };
    }
    const key = JSON.stringify(issue);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}

/** Whether a text is a day of the calendar written YYYY-MM-DD: a 30 February is well formed but no day. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]!);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
