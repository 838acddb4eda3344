/**
 * The rule-pack engine: loads versioned YAML packs, checks them, and runs their calculators with
 * full traces. Knows no tax and no HTTP; everything specific lives in the packs.
 */
export { answerFrame } from './catalog/answer-frame.ts';
export { createCatalog, dayOfFacts, type Catalog } from './catalog/catalog.ts';
export { calculatorEntry, calculatorFacts, factDescriptor, graphEdges, ruleDescriptor } from './catalog/descriptors.ts';
export { factHelp } from './catalog/help.ts';
export { loadPacks, type LoadedPacks, type PackReport } from './catalog/load-packs.ts';
export { object, ref, tagged, type JsonSchema, type SchemaType } from './contract/schema-type.ts';
export { CONTRACT_SCHEMAS, type CalculatorEntry, type FactDescriptor, type FactHelp, type ParameterTrace, type RuleDescriptor, type TraceNode } from './contract/shapes.ts';
export { readServingDefaults, SERVING_FILE, type ServingDefaults } from './load/serving.ts';
export { readStoredYaml, STORED_YAML_FILES, writeStoredYaml, type StoredYamlFiles, type YamlStore } from './load/stored-yaml.ts';
export { runExamples, type ExampleMismatch, type ExampleResult } from './examples/run-examples.ts';
export { parseFormula, type FormulaNames, type FormulaProblem, type ParsedFormula } from './expressions/formula-parse.ts';
export { FORMULA_WIDTH, renderFormula } from './expressions/formula-render.ts';
export { formulaNames } from './load/formula.ts';
export { formatDiagnostic, type Diagnostic, type DiagnosticKind, type GraphIssueKind, type SourceLocation } from './model/diagnostics.ts';
export { HELP_MODES, type CalculatorDef, type FactDef, type HelpMode, type PackDef, type ParameterDef, type RuleDef, type SourceDef } from './model/pack.ts';
export { Decimal } from './money/decimal.ts';
export { suggest } from './model/suggest.ts';
export { reportSchemas } from './report/fields.ts';
export { jsonText } from './json/json-text.ts';
export { issuesFromErrors, type InputIssue } from './run/decode.ts';
export { computeFacts, intermediatesBeforeRounding, runCalculator, type RunOutcome, type ReportFrame, type RunOptions } from './run/evaluate.ts';
export { planWithReport, type CalculatorPlan } from './run/plan.ts';
export { carriedValues, type CarriedValues, type Notice } from './validate/carried-values.ts';
export { inForceDuring, valueInEffect } from './run/parameters.ts';
