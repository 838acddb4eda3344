import type { SourceLocation } from './diagnostics.ts';

/** Units a parameter value or table column can have. */
export type ValueUnit = 'cents' | 'dollars' | 'ratio' | 'count' | 'boolean';
export type ParameterUnit = ValueUnit | 'bracket-table';

/** A source's kind, as the pack names it; `internal-validation` marks the project's own checks and assembly. */
export type SourceKind = string;

export interface SourceDef {
  id: string;
  kind: SourceKind;
  reference: string;
  title: string;
  at: SourceLocation;
}

export interface EffectivePeriod {
  from: string;
  toExclusive: string | null;
}

/** A fact's JSON shape, as declared in facts.yaml. */
export type FactShape =
  | { type: 'money' }
  | { type: 'boolean' }
  | { type: 'ratio' }
  | { type: 'count' }
  | { type: 'selection'; options: string[] }
  | { type: 'record'; tag: string; fields: Record<string, FactShape> }
  /** A calendar day, written YYYY-MM-DD. */
  | { type: 'date' };

/** How a question asks for a fact's value. */
export const QUESTION_INPUT_KINDS = ['money', 'boolean', 'selection'] as const;

/** Whether a fact is given by the caller or derived by a rule. */
export const FACT_AUTHORITIES = ['input', 'derived'] as const;

export interface FactQuestionDef {
  id: string;
  inputKind: (typeof QUESTION_INPUT_KINDS)[number];
  prompt: string;
  helpText?: string;
}

export interface FactDef {
  id: string;
  title: string;
  authority: (typeof FACT_AUTHORITIES)[number];
  schemaTag: string;
  shape: FactShape;
  question?: FactQuestionDef;
  example?: unknown;
  /** False when its entry broke the schema: known by id, but its shape is not trusted. */
  wellFormed: boolean;
  at: SourceLocation;
}

/** How the rows of a bracket table are matched. */
export interface TableSpec {
  bound: 'below' | 'upTo' | 'from';
  boundUnit: 'cents' | 'dollars';
  columns: Record<string, ValueUnit>;
}

/** Raw scalar or row values as written in YAML (numbers, numeric strings, booleans, null). */
export type RawScalar = number | string | boolean | null;

/**
 * A reviewer's confirmation that a value carried unchanged from the pack of the year before still
 * applies in `taxYear`. It confirms that one year only, so a copy made for the next year asks again.
 */
export interface CarriedOverDef {
  taxYear: string;
  reviewedBy: string;
  reason: string;
}

export interface ParameterValueDef {
  effectivePeriod: EffectivePeriod;
  source: string;
  value?: RawScalar;
  rows?: Record<string, RawScalar>[];
  carriedOver?: CarriedOverDef;
  at: SourceLocation;
  sourceAt: SourceLocation;
}

export interface ParameterDef {
  id: string;
  title: string;
  description?: string;
  unit: ParameterUnit;
  table?: TableSpec;
  values: ParameterValueDef[];
  /** False when its file broke the schema: it is known by id, but its values are not checked further. */
  wellFormed: boolean;
  at: SourceLocation;
  /** Where its `values` list is. */
  valuesAt: SourceLocation;
  /** Where a path inside its file was written (with `key: true`, the key that names it), such as a row of a table. */
  locate(path: readonly (string | number)[], options?: { key?: boolean }): SourceLocation;
}

/** How a ledger component counts towards the ledger's total. */
export const LEDGER_EFFECTS = ['additive', 'subtractive', 'informational'] as const;

/** Whether a rule must cite a source. */
export const SOURCE_POLICIES = ['not-required', 'required'] as const;

export interface LedgerComponentDef {
  id: string;
  label: string;
  fact: string;
  effect: (typeof LEDGER_EFFECTS)[number];
  whenZero: 'active' | 'zeroed';
}

export interface RuleDef {
  id: string;
  title: string;
  requires: string[];
  provides: string[];
  parameters: string[];
  sources: string[];
  sourcePolicy: (typeof SOURCE_POLICIES)[number];
  allowDuplicateProvides?: boolean;
  rounding: string;
  /** The formula as written, when the rule has one; `expression` is what it parsed into. */
  formula?: string;
  /** The json-logic expression the checker compiles: parsed from `formula`, or written as json-logic. */
  expression?: unknown;
  ledger?: LedgerComponentDef[];
  explanation: string;
  /** False when its file broke the schema: it takes part in the graph, but its expression is not checked. */
  wellFormed: boolean;
  at: SourceLocation;
  /** Location of each list entry or key, for precise diagnostics. */
  locate(path: (string | number)[]): SourceLocation;
}

/** A report object template: an object with `_tag` and fields. */
export interface ReportObjectTemplate {
  tag: string;
  fields: Record<string, ReportFieldTemplate>;
}
export type ReportFieldTemplate =
  | ReportObjectTemplate
  | { money: string }
  | { fact: string }
  | { trace: string }
  | { ledgerComponents: string }
  | { parameterSource: string }
  | { rulePackVersion: true };

/** How much help a calculator's decode errors may carry, from none to everything. */
export const HELP_MODES = ['none', 'errors', 'schema', 'examples', 'sources', 'full'] as const;
export type HelpMode = (typeof HELP_MODES)[number];

export interface CalculatorDef {
  id: string;
  title: string;
  description: string;
  inputFacts: string[];
  outputFacts: string[];
  factsSchemaName: string;
  reportSchemaName: string;
  supportedHelpModes: HelpMode[];
  catalogOrder?: number;
  /** The date fact that chooses the value of each parameter read: the value in effect on that day. */
  parametersInEffectOn?: string;
  report: ReportObjectTemplate;
  /** False when its file broke the schema: its lists are used, its report template is not. */
  wellFormed: boolean;
  at: SourceLocation;
  locate(path: (string | number)[]): SourceLocation;
}

export interface ExampleDef {
  name: string;
  calculator: string;
  facts: Record<string, unknown>;
  expect: Record<string, unknown>;
  source: string;
  note?: string;
  at: SourceLocation;
}

export interface RoundingModeDef {
  id: string;
  to: 'cent' | 'dollar';
  method: 'half-up' | 'floor' | 'ceil';
  source: string;
  explanation: string;
  at: SourceLocation;
}

/** A rule pack as loaded from its folder, before any checking beyond its JSON Schema. */
export interface PackDef {
  id: string;
  version: string;
  title: string;
  description?: string;
  jurisdiction: { code: string; title: string };
  taxYear: { id: string; from: string; toExclusive: string };
  currency: string;
  roundingModes: RoundingModeDef[];
  sources: SourceDef[];
  facts: FactDef[];
  parameters: ParameterDef[];
  rules: RuleDef[];
  calculators: CalculatorDef[];
  examples: ExampleDef[];
  /** Folder the pack was loaded from. */
  dir: string;
  at: SourceLocation;
}
