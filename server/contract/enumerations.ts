import type { JsonSchema, PackDef, SourceLocation } from '../../engine/index.ts';

/** The kinds of source the API names. */
export const SOURCE_KINDS = ['ato-publication', 'legislation', 'regulation', 'internal-validation'];

/** The rounding names the API names: the engine's built-in modes and the one the pay pack declares. */
export const ROUNDING_NAMES = ['none', 'round-to-nearest-cent', 'floor-cent', 'ceil-cent', 'floor-dollar', 'ceil-dollar', 'ato-withholding-rounding'];

/** A value a pack writes that the service publishes, with where the pack writes it. */
interface PackValue {
  value: string;
  at: SourceLocation;
  /** The start of the sentence that names it: "rule `x` rounds with". */
  subject: string;
}

/**
 * Each closed enumeration of the API description whose values come from packs: the schema and
 * property that publish it, and the pack values that end up there. The allowed values are read from
 * the API's own schemas, so there is no second list to keep in step.
 */
const PUBLISHED: { schema: string; property: string; values: (pack: PackDef) => PackValue[] }[] = [
  {
    schema: 'SourceRef',
    property: 'kind',
    values: (pack) => pack.sources.map((source) => ({ value: source.kind, at: source.at, subject: `source \`${source.id}\` has kind` })),
  },
  {
    schema: 'TraceNode',
    property: 'rounding',
    values: (pack) => pack.rules.map((rule) => ({ value: rule.rounding, at: rule.locate(['rounding']), subject: `rule \`${rule.id}\` rounds with` })),
  },
  {
    schema: 'RuleDescriptor',
    property: 'sourcePolicy',
    values: (pack) => pack.rules.map((rule) => ({ value: rule.sourcePolicy, at: rule.locate(['sourcePolicy']), subject: `rule \`${rule.id}\` has source policy` })),
  },
  {
    schema: 'LedgerComponent',
    property: 'effect',
    values: (pack) =>
      pack.rules.flatMap((rule) => (rule.ledger ?? []).map((component, index) => ({ value: component.effect, at: rule.locate(['ledger', index, 'effect']), subject: `ledger component \`${component.id}\` has effect` }))),
  },
  {
    schema: 'LedgerComponent',
    property: 'status',
    values: (pack) =>
      pack.rules.flatMap((rule) => (rule.ledger ?? []).map((component, index) => ({ value: component.whenZero, at: rule.locate(['ledger', index, 'whenZero']), subject: `ledger component \`${component.id}\` has status when zero` }))),
  },
  {
    schema: 'CalculatorEntry',
    property: 'supportedHelpModes',
    values: (pack) =>
      pack.calculators.flatMap((calculator) =>
        calculator.supportedHelpModes.map((mode, index) => ({ value: mode, at: calculator.locate(['supportedHelpModes', index]), subject: `calculator \`${calculator.id}\` supports help mode` })),
      ),
  },
  {
    schema: 'FactDescriptor',
    property: 'authority',
    values: (pack) => pack.facts.map((fact) => ({ value: fact.authority, at: fact.at, subject: `fact \`${fact.id}\` has authority` })),
  },
  {
    schema: 'FactQuestion',
    property: 'inputKind',
    values: (pack) => pack.facts.flatMap((fact) => (fact.question ? [{ value: fact.question.inputKind, at: fact.at, subject: `fact \`${fact.id}\` asks with input kind` }] : [])),
  },
];

/**
 * Every value the packs would publish in a closed enumeration of the API that the enumeration does
 * not name, as `file:line:column schema …` lines. The boot refuses such packs: the service must not
 * answer outside its own description.
 */
export function valuesOutsideContract(packs: readonly PackDef[], schemas: Readonly<Record<string, JsonSchema>>): string[] {
  const problems: string[] = [];
  for (const { schema, property, values } of PUBLISHED) {
    const allowed = allowedValues(schemas, schema, property);
    const named = allowed.filter((value): value is string => typeof value === 'string');
    for (const pack of packs) {
      for (const { value, at, subject } of values(pack)) {
        if (!allowed.includes(value)) problems.push(`${at.file}:${at.line}:${at.column} schema ${subject} \`${value}\`; the API allows ${named.join(', ')}`);
      }
    }
  }
  return problems;
}

/** The values an enumerated property (or the items of an enumerated array property) allows. */
function allowedValues(schemas: Readonly<Record<string, JsonSchema>>, schema: string, property: string): unknown[] {
  const node = (schemas[schema]?.properties as Record<string, JsonSchema> | undefined)?.[property];
  const values = (node?.enum ?? (node?.items as JsonSchema | undefined)?.enum) as unknown[] | undefined;
  if (!values) throw new Error(`the API description has no enumeration at ${schema}.${property}`);
  return values;
}
