import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, parse, parseDocument, type Node } from 'yaml';
import { FORMULA_WIDTH, formatDiagnostic, formulaNames, loadPacks, parseFormula, renderFormula, type PackDef, type RuleDef } from '../../engine/index.ts';

/** One rule whose json-logic `expression` is (or would be) rewritten as a `formula`, or whose formula is re-laid out. */
export interface Conversion {
  file: string;
  ruleId: string;
  /** `converted` from json-logic, or `formatted`: a formula rewritten in the renderer's layout and symbols. */
  change: 'converted' | 'formatted';
  formula: string;
  /** The expression held YAML comments, which the formula cannot keep. */
  droppedComments: boolean;
}

export interface ConversionResult {
  conversions: Conversion[];
  /** Packs or rules that could not be converted, and why. */
  problems: string[];
}

/**
 * Rewrites every rule written as json-logic in the packs at or under `paths` as a formula, and every
 * formula not in the renderer's layout (ASCII symbols, other line breaks) in it. A rule is rewritten
 * only when its new formula parses back to exactly the same expression, so the packs compute exactly
 * what they did; packs with diagnostics are left alone.
 */
export function convertPacks(paths: readonly string[], options: { write: boolean }): ConversionResult {
  const loaded = loadPacks(paths);
  const problems = loaded.missing.map((path) => `${path}: no such folder`);
  const conversions: Conversion[] = [];
  for (const report of loaded.packs) {
    if (report.diagnostics.length > 0) {
      problems.push(`${report.pack.dir}: fix the pack's diagnostics first:`, ...report.diagnostics.map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`));
      continue;
    }
    for (const rule of report.pack.rules) {
      if (rule.expression === undefined) continue;
      if (rule.formula !== undefined && rule.formula === renderFormula(rule.expression, { width: FORMULA_WIDTH })) continue;
      const converted = convertRule(report.pack, rule, options.write);
      if (typeof converted === 'string') problems.push(converted);
      else conversions.push(converted);
    }
  }
  return { conversions, problems };
}

function convertRule(pack: PackDef, rule: RuleDef, write: boolean): Conversion | string {
  const file = [join(pack.dir, 'rules', `${rule.id}.yaml`), join(pack.dir, 'rules', `${rule.id}.yml`)].find((candidate) => existsSync(candidate))!;
  const formula = renderFormula(rule.expression, { width: FORMULA_WIDTH });
  const reread = parseFormula(formula, formulaNames(rule, pack));
  if (!isDeepStrictEqual(reread.expression, rule.expression)) {
    const why = reread.problems.map((problem) => problem.message).join('; ') || 'it reads back as a different expression';
    return `${file}: rule \`${rule.id}\` cannot be written as a formula without changing it (${why}); convert it by hand`;
  }
  const text = readFileSync(file, 'utf8');
  const document = parseDocument(text);
  const change = rule.formula === undefined ? 'converted' : 'formatted';
  const key = change === 'converted' ? 'expression' : 'formula';
  const pair = isMap(document.contents) ? document.contents.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key) : undefined;
  const start = (pair?.key as Node | undefined)?.range?.[0];
  let end = (pair?.value as Node | undefined)?.range?.[1];
  if (start === undefined || end === undefined) return `${file}: rule \`${rule.id}\` has no top-level \`${key}\` key to rewrite`;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const column = start - (text.lastIndexOf('\n', start - 1) + 1);
  const rewritten = text.slice(0, start) + formulaEntry(formula, column) + text.slice(end);
  const check = parse(rewritten) as Record<string, unknown>;
  if (check.formula !== formula || 'expression' in check) return `${file}: rule \`${rule.id}\`: the rewritten file does not read back as the formula; convert it by hand`;
  if (write) writeFileSync(file, rewritten);
  const droppedComments = change === 'converted' && /(^|\s)#/m.test(text.slice(start, end));
  return { file, ruleId: rule.id, change, formula, droppedComments };
}

/** `formula: …` on one line when YAML reads it back unchanged, otherwise as a literal block. */
function formulaEntry(formula: string, column: number): string {
  if (!formula.includes('\n')) {
    const plain = `formula: ${formula}`;
    if ((parse(plain) as { formula?: unknown }).formula === formula) return plain;
  }
  const indentation = ' '.repeat(column + 2);
  return `formula: |-\n${formula.split('\n').map((line) => indentation + line).join('\n')}`;
}
