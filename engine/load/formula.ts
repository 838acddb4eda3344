import { parseFormula, spanAt, type FormulaNames } from '../expressions/formula-parse.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { PackDef, RuleDef } from '../model/pack.ts';
import { BUILT_IN_ROUNDING_MODES } from '../money/rounding.ts';
import type { ParsedYaml } from './yaml.ts';

/**
 * Reads a rule's `formula` into the json-logic expression the checker compiles. Every problem, and
 * every later problem the checker finds in the expression, is located inside the formula's text.
 * A formula with problems leaves the rule without an expression, so nothing follows from it.
 */
export function readFormula(rule: RuleDef, formula: string, parsed: ParsedYaml, pack: PackDef): { rule: RuleDef; diagnostics: Diagnostic[] } {
  const { expression, spans, problems } = parseFormula(formula, formulaNames(rule, pack));
  const inFormula = (offset: number) => parsed.locateInText(['formula'], offset);
  const diagnostics = problems.map((problem): Diagnostic => ({ kind: 'expression', message: `rule \`${rule.id}\`: ${problem.message}`, location: inFormula(problem.start) }));
  if (expression === undefined) return { rule: { ...rule, formula, wellFormed: false }, diagnostics };
  const locate = (path: (string | number)[]) => (path[0] === 'expression' ? inFormula(spanAt(spans, path.slice(1))?.start ?? 0) : rule.locate(path));
  return { rule: { ...rule, formula, expression, locate }, diagnostics };
}

/** The names a rule's formula may use. */
export function formulaNames(rule: RuleDef, pack: PackDef): FormulaNames {
  const roundingModes = [...BUILT_IN_ROUNDING_MODES.map((mode) => mode.name), ...pack.roundingModes.map((mode) => mode.id)];
  return { facts: rule.requires, parameters: rule.parameters, roundingModes };
}
