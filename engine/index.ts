/**
 * The rule-pack engine: loads versioned YAML packs, checks them, and runs their calculators with
 * full traces. Knows no tax and no HTTP; everything specific lives in the packs.
 */
export { createCatalog, type Catalog } from './catalog/catalog.ts';
export {
  calculatorEntry,
  calculatorFacts,
  factDescriptor,
  graphEdges,
  ruleDescriptor,
  type CalculatorEntry,
  type FactDescriptor,
  type FactQuestion,
  type GraphEdge,
  type RuleDescriptor,
} from './catalog/descriptors.ts';
export { factHelp, type FactHelp } from './catalog/help.ts';
export { loadPacks, type LoadedPacks, type PackReport } from './catalog/load-packs.ts';
export { runExamples, type ExampleMismatch, type ExampleResult } from './examples/run-examples.ts';
export { parseFormula, type FormulaNames, type FormulaProblem, type ParsedFormula } from './expressions/formula-parse.ts';
export { FORMULA_WIDTH, renderFormula } from './expressions/formula-render.ts';
export type { SourceRefJson } from './expressions/values.ts';
export { formulaNames } from './load/formula.ts';
export { formatDiagnostic, type Diagnostic, type DiagnosticKind, type GraphIssueKind, type SourceLocation } from './model/diagnostics.ts';
export type { CalculatorDef, FactDef, HelpMode, PackDef, ParameterDef, RuleDef, SourceDef } from './model/pack.ts';
export { Decimal } from './money/decimal.ts';
export { suggest } from './model/suggest.ts';
export { issuesFromErrors, type InputIssue } from './run/decode.ts';
export { computeFacts, runCalculator, runCalculatorJson, type CalculationOutcome, type RunOptions } from './run/evaluate.ts';
export type { CalculatorPlan } from './run/plan.ts';
export type { JsonSchema } from './run/shapes.ts';
export type { ParameterTrace, TraceNode } from './trace/trace.ts';
export { reportSchemas } from './run/report-schema.ts';
