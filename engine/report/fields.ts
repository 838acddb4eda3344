import { ref, type JsonSchema } from '../contract/schema-type.ts';
import type { SourceRef } from '../contract/shapes.ts';
import type { Value } from '../expressions/values.ts';
import type { FactDef, FactShape, LedgerComponentDef, ReportFieldTemplate, ReportObjectTemplate } from '../model/pack.ts';
import type { ComponentResult, ReportRun } from '../trace/record.ts';
import { jsonSchemaOf } from '../contract/fact-shapes.ts';
import { asciiBytes, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACKET, type JsonBytes } from '../json/json-bytes.ts';
import { jsonWriterOf } from '../json/value-json.ts';
import { jsonText as text } from '../json/json-text.ts';

/** What a report template is read against: the parts of a calculator's plan it needs. */
export interface TemplateContext {
  def: { inputFacts: readonly string[] };
  pack: { currency: string };
  facts: ReadonlyMap<string, FactDef>;
  steps: readonly { ledger?: { components: readonly LedgerComponentDef[] } }[];
  /** The step deriving each derived fact. */
  stepOfFact: ReadonlyMap<string, number>;
  slotOf: ReadonlyMap<string, number>;
  rulePackVersion: string;
  /** The source of each parameter's value in effect for the calculation, by parameter id. */
  parameterSources: ReadonlyMap<string, SourceRef>;
}

/** Writes a report object (or one field's value) of one run as JSON. */
export type ReportWriter = (run: ReportRun, out: JsonBytes) => void;

/** Where a template problem is, below the template, and what it is. */
export interface TemplateProblem {
  message: string;
  path: string[];
}

/**
 * Everything one kind of template field means, in one place: the facts it reads, what makes it
 * wrong for a calculator, the JSON Schema of its value and how its value is written.
 */
interface FieldKind<Field> {
  facts(field: Field): string[];
  problem(field: Field, calculator: TemplateContext): string | undefined;
  schema(field: Field, calculator: TemplateContext, named: Map<string, JsonSchema>): JsonSchema;
  writer(field: Field, calculator: TemplateContext): ReportWriter;
}

type FieldOf<Key extends string> = Extract<ReportFieldTemplate, Record<Key, unknown>>;

const rootOf = (path: string) => path.split('.')[0]!;

const FIELD_KINDS: { [Key in 'fields' | 'money' | 'fact' | 'trace' | 'ledgerComponents' | 'parameterSource' | 'rulePackVersion']: FieldKind<FieldOf<Key>> } = {
  fields: {
    facts: (field) => templateFacts(field),
    problem: () => undefined,
    schema: (field, calculator, named) => {
      named.set(field.tag, objectSchema(field, calculator, named));
      return ref(field.tag);
    },
    writer: (field, calculator) => compileTemplate(field, calculator),
  },
  money: {
    facts: (field) => [rootOf(field.money)],
    problem: (field, calculator) => {
      if (shapeAt(calculator.facts, field.money)?.type !== 'money') return `\`${field.money}\` is not a money fact`;
      const root = rootOf(field.money);
      if (!calculator.def.inputFacts.includes(root) && !calculator.stepOfFact.has(root)) return `\`${field.money}\` is not available to this calculator`;
      return undefined;
    },
    schema: () => ref('Money'),
    writer: (field, calculator) => {
      const read = reader(calculator, field.money);
      const write = jsonWriterOf({ type: 'money' }, calculator.pack.currency);
      return (run, out) => write(out, read(run.values));
    },
  },
  fact: {
    facts: (field) => [rootOf(field.fact)],
    problem: (field, calculator) => (shapeAt(calculator.facts, field.fact) ? undefined : `\`${field.fact}\` is not a fact or fact field`),
    schema: (field, calculator) => jsonSchemaOf(shapeAt(calculator.facts, field.fact)!, calculator.pack.currency),
    writer: (field, calculator) => {
      const read = reader(calculator, field.fact);
      const write = jsonWriterOf(shapeAt(calculator.facts, field.fact)!, calculator.pack.currency);
      return (run, out) => write(out, read(run.values));
    },
  },
  trace: {
    facts: (field) => [field.trace],
    problem: (field, calculator) => (calculator.stepOfFact.has(field.trace) ? undefined : `\`${field.trace}\` is not derived by a rule of this calculator`),
    schema: () => ref('TraceNode'),
    writer: (field, calculator) => {
      const step = calculator.stepOfFact.get(field.trace)!;
      return (run) => run.trace(step);
    },
  },
  ledgerComponents: {
    facts: (field) => [field.ledgerComponents],
    problem: (field, calculator) => {
      const step = calculator.stepOfFact.get(field.ledgerComponents);
      return step !== undefined && calculator.steps[step]!.ledger ? undefined : `\`${field.ledgerComponents}\` is not provided by a ledger rule`;
    },
    schema: () => ({ type: 'array', items: ref('LedgerComponent') }),
    writer: (field, calculator) => componentsWriter(calculator, calculator.stepOfFact.get(field.ledgerComponents)!),
  },
  parameterSource: {
    facts: () => [],
    problem: (field, calculator) =>
      calculator.parameterSources.has(field.parameterSource) ? undefined : `\`${field.parameterSource}\` is not a parameter of this pack with a value in effect for the whole calculation`,
    schema: () => ref('SourceRef'),
    writer: (field, calculator) => {
      const source = asciiBytes(text(calculator.parameterSources.get(field.parameterSource)));
      return (_run, out) => out.piece(source);
    },
  },
  rulePackVersion: {
    facts: () => [],
    problem: () => undefined,
    schema: (_field, calculator) => ({ const: calculator.rulePackVersion }),
    writer: (_field, calculator) => {
      const version = asciiBytes(text(calculator.rulePackVersion));
      return (_run, out) => out.piece(version);
    },
  },
};

/** The kind of a template field: the one key that tells them apart (the pack schema allows exactly one). */
function kindOf(field: ReportFieldTemplate): FieldKind<ReportFieldTemplate> {
  for (const key of Object.keys(FIELD_KINDS) as (keyof typeof FIELD_KINDS)[]) {
    if (key in field) return FIELD_KINDS[key] as FieldKind<ReportFieldTemplate>;
  }
  throw new Error('a report template field of no known kind got past the pack schema');
}

/** Fact ids a report template reads (the first segment of each path). */
export function templateFacts(template: ReportObjectTemplate): string[] {
  return Object.values(template.fields).flatMap((field) => kindOf(field).facts(field));
}

/** What is wrong with a report template for a calculator, each with its path below the template. */
export function templateProblems(template: ReportObjectTemplate, calculator: TemplateContext, path: string[] = []): TemplateProblem[] {
  return Object.entries(template.fields).flatMap(([name, field]) => {
    const at = [...path, 'fields', name];
    if ('fields' in field) return templateProblems(field, calculator, at);
    const message = kindOf(field).problem(field, calculator);
    return message ? [{ message, path: at }] : [];
  });
}

/** The template compiled into a writer of the report's JSON: fact paths resolved to slots, writers chosen, keys encoded once. */
export function compileTemplate(template: ReportObjectTemplate, calculator: TemplateContext): ReportWriter {
  const fields = Object.entries(template.fields).map(([name, field]) => ({ key: asciiBytes(`,${text(name)}:`), write: kindOf(field).writer(field, calculator) }));
  const head = asciiBytes(`{"_tag":${text(template.tag)}`);
  return (run, out) => {
    out.piece(head);
    for (const field of fields) {
      out.piece(field.key);
      field.write(run, out);
    }
    out.byte(CLOSE_BRACE);
  };
}

/**
 * JSON Schemas of the objects a report is made of, one per `_tag`, derived from the template so that
 * the API description can never disagree with what is written.
 */
export function reportSchemas(plan: TemplateContext & { report: ReportObjectTemplate }): Map<string, JsonSchema> {
  const named = new Map<string, JsonSchema>();
  named.set(plan.report.tag, objectSchema(plan.report, plan, named));
  return named;
}

function objectSchema(template: ReportObjectTemplate, calculator: TemplateContext, named: Map<string, JsonSchema>): JsonSchema {
  const properties: Record<string, JsonSchema> = { _tag: { const: template.tag } };
  for (const [name, field] of Object.entries(template.fields)) properties[name] = kindOf(field).schema(field, calculator, named);
  return { type: 'object', required: Object.keys(properties), additionalProperties: false, properties };
}

/** The shape at a dotted path into a fact, or undefined. */
export function shapeAt(facts: ReadonlyMap<string, FactDef>, path: string): FactShape | undefined {
  const [root, ...fields] = path.split('.');
  let shape: FactShape | undefined = facts.get(root!)?.shape;
  for (const field of fields) shape = shape?.type === 'record' ? shape.fields[field] : undefined;
  return shape;
}

/** Reads a dotted fact path (`grossPay.period`) from a run's fact slots. */
function reader(calculator: TemplateContext, path: string): (values: readonly Value[]) => Value {
  const [root, ...fields] = path.split('.');
  const slot = calculator.slotOf.get(root!)!;
  if (fields.length === 0) return (values) => values[slot]!;
  return (values) => {
    let value = values[slot]!;
    for (const field of fields) value = (value as Record<string, Value>)[field]!;
    return value;
  };
}

const STATUS_TEXT: Record<ComponentResult['status'], Uint8Array> = { active: asciiBytes(text('active')), zeroed: asciiBytes(text('zeroed')) };
const COMPONENT_HEAD = asciiBytes('{"_tag":"LedgerComponent","amount":');
const COMPONENT_TRACE = asciiBytes(',"trace":');

/** The ledger components of a step as LedgerComponent objects, each with the trace of its fact. */
function componentsWriter(calculator: TemplateContext, step: number): ReportWriter {
  const money = jsonWriterOf({ type: 'money' }, calculator.pack.currency);
  const parts = calculator.steps[step]!.ledger!.components.map((component) => ({
    traceStep: calculator.stepOfFact.get(component.fact)!,
    middle: asciiBytes(`,"effect":${text(component.effect)},"id":${text(component.id)},"label":${text(component.label)},"status":`),
  }));
  return (run, out) => {
    const results = run.records[step]!.components!;
    out.byte(OPEN_BRACKET);
    for (let index = 0; index < results.length; index++) {
      const result = results[index]!;
      const part = parts[index]!;
      if (index > 0) out.byte(COMMA);
      out.piece(COMPONENT_HEAD);
      money(out, result.amount);
      out.piece(part.middle);
      out.piece(STATUS_TEXT[result.status]);
      out.piece(COMPONENT_TRACE);
      run.trace(part.traceStep);
      out.byte(CLOSE_BRACE);
    }
    out.byte(CLOSE_BRACKET);
  };
}
