import { renderFormula, type PackDef, type PackReport, type RuleDef } from '../../engine/index.ts';
import { formatFigure } from '../lib/money.ts';
import { fieldChange, listChange, pairById, period, same, text, type Section } from './compare.ts';
import { parameterSection } from './parameters.ts';

/** Every definition that differs between two versions of a pack, section by section, in a reviewer's terms. */
export function definitionSections(old: PackReport, now: PackReport): Section[] {
  return [
    packSection(old.pack, now.pack),
    sourceSection(old.pack, now.pack),
    parameterSection(old.pack, now.pack),
    ruleSection(old, now),
    factSection(old.pack, now.pack),
    calculatorSection(old, now),
    exampleSection(old.pack, now.pack),
  ];
}

function packSection(old: PackDef, now: PackDef): Section {
  const year = (pack: PackDef) => `${pack.taxYear.id} (${period({ from: pack.taxYear.from, toExclusive: pack.taxYear.toExclusive })})`;
  const modes = pairById(old.roundingModes, now.roundingModes);
  const lines = [
    ...fieldChange('id', old.id, now.id),
    ...fieldChange('version', old.version, now.version),
    ...fieldChange('title', old.title, now.title),
    ...fieldChange('description', old.description, now.description),
    ...fieldChange('jurisdiction', old.jurisdiction, now.jurisdiction),
    ...fieldChange('tax year', year(old), year(now)),
    ...fieldChange('currency', old.currency, now.currency),
  ].map((line) => `~ ${line}`);
  for (const mode of modes.removed) lines.push(`- rounding mode ${mode.id}`);
  for (const mode of modes.added) lines.push(`+ rounding mode ${mode.id}: to the ${mode.to}, ${mode.method} (source ${mode.source})`);
  for (const [before, after] of modes.both) {
    const detail = (['to', 'method', 'source', 'explanation'] as const).flatMap((field) => fieldChange(field, before[field], after[field]));
    if (detail.length > 0) lines.push(`~ rounding mode ${after.id}`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Pack', lines };
}

function sourceSection(old: PackDef, now: PackDef): Section {
  const { removed, added, both } = pairById(old.sources, now.sources);
  const lines = [
    ...removed.map((source) => `- ${source.id}: ${source.reference} (${source.kind})`),
    ...added.map((source) => `+ ${source.id}: ${source.reference} (${source.kind}): ${source.title}`),
  ];
  for (const [before, after] of both) {
    const detail = (['kind', 'reference', 'title'] as const).flatMap((field) => fieldChange(field, before[field], after[field]));
    if (detail.length > 0) lines.push(`~ ${after.id}`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Sources', lines };
}

/** Rules: the expression before and after as the engine renders it, and every other field that changed. */
function ruleSection(old: PackReport, now: PackReport): Section {
  const { removed, added, both } = pairById(old.pack.rules, now.pack.rules);
  const oldFormula = formulas(old);
  const newFormula = formulas(now);
  const lines: string[] = [];
  for (const rule of removed) lines.push(`- ${rule.id} (${rule.title})`, `    formula: ${oldFormula(rule)}`);
  for (const rule of added) lines.push(`+ ${rule.id} (${rule.title})`, `    formula: ${newFormula(rule)}`, `    requires [${rule.requires.join(', ')}], provides [${rule.provides.join(', ')}], parameters [${rule.parameters.join(', ')}], sources [${rule.sources.join(', ')}], rounding ${rule.rounding}`);
  for (const [before, after] of both) {
    // Key order means nothing, except among `let` bindings, which run in order: the formula shows that order.
    const expressionChanged = !same(before.expression ?? before.ledger, after.expression ?? after.ledger) || oldFormula(before) !== newFormula(after);
    const detail = [
      ...fieldChange('title', before.title, after.title),
      ...(expressionChanged ? [`formula before: ${oldFormula(before)}`, `formula after:  ${newFormula(after)}`] : []),
      ...listChange('requires', before.requires, after.requires),
      ...listChange('provides', before.provides, after.provides),
      ...listChange('parameters', before.parameters, after.parameters),
      ...listChange('sources', before.sources, after.sources),
      ...fieldChange('source policy', before.sourcePolicy, after.sourcePolicy),
      ...fieldChange('rounding', before.rounding, after.rounding),
      ...fieldChange('allowDuplicateProvides', before.allowDuplicateProvides, after.allowDuplicateProvides),
      ...fieldChange('explanation', before.explanation, after.explanation),
    ];
    if (detail.length > 0) lines.push(`~ ${after.id} (${after.title})`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Rules', lines };
}

/** The engine's readable formula of each rule, from the plan of a calculator that runs it, or rendered for a rule no calculator runs. */
function formulas(report: PackReport): (rule: RuleDef) => string {
  const byRule = new Map(report.plans.flatMap((plan) => plan.steps.map((step) => [step.rule.id, step.formula] as const)));
  const unused = (rule: RuleDef) => (rule.expression !== undefined ? renderFormula(rule.expression) : text(rule.ledger));
  return (rule) => byRule.get(rule.id) ?? `${unused(rule)} (used by no calculator)`;
}

function factSection(old: PackDef, now: PackDef): Section {
  const { removed, added, both } = pairById(old.facts, now.facts);
  const lines = [...removed.map((fact) => `- ${fact.id} (${fact.title})`), ...added.map((fact) => `+ ${fact.id} (${fact.title}), ${fact.authority}, ${text(fact.shape)}`)];
  for (const [before, after] of both) {
    const detail = (['title', 'authority', 'schemaTag', 'shape', 'question', 'example'] as const).flatMap((field) => fieldChange(field, before[field], after[field]));
    if (detail.length > 0) lines.push(`~ ${after.id} (${after.title})`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Facts', lines };
}

/** Calculators: their definitions, and the rules their plans run (which move when a rule's requires do). */
function calculatorSection(old: PackReport, now: PackReport): Section {
  const { removed, added, both } = pairById(old.pack.calculators, now.pack.calculators);
  const rulesRun = (report: PackReport, id: string) => report.plans.find((plan) => plan.def.id === id)?.steps.map((step) => step.rule.id) ?? [];
  const lines = [...removed.map((calculator) => `- ${calculator.id} (${calculator.title})`), ...added.map((calculator) => `+ ${calculator.id} (${calculator.title}), rules [${rulesRun(now, calculator.id).join(', ')}]`)];
  for (const [before, after] of both) {
    const detail = [
      ...fieldChange('title', before.title, after.title),
      ...fieldChange('description', before.description, after.description),
      ...listChange('input facts', before.inputFacts, after.inputFacts),
      ...listChange('output facts', before.outputFacts, after.outputFacts),
      ...listChange('rules run', rulesRun(old, before.id), rulesRun(now, after.id)),
      ...fieldChange('facts schema', before.factsSchemaName, after.factsSchemaName),
      ...fieldChange('report schema', before.reportSchemaName, after.reportSchemaName),
      ...listChange('help modes', before.supportedHelpModes, after.supportedHelpModes),
      ...fieldChange('catalog order', before.catalogOrder, after.catalogOrder),
      ...fieldChange('report', before.report, after.report),
    ];
    if (detail.length > 0) lines.push(`~ ${after.id} (${after.title})`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Calculators', lines };
}

/** Example definitions, paired by calculator and name: facts, expected figures and sources. */
function exampleSection(old: PackDef, now: PackDef): Section {
  const keyed = (pack: PackDef) => pack.examples.map((example) => ({ ...example, id: `${example.name} (${example.calculator})` }));
  const { removed, added, both } = pairById(keyed(old), keyed(now));
  const money = new Set([...old.facts, ...now.facts].filter((fact) => fact.shape.type === 'money').map((fact) => fact.id));
  const lines = [...removed.map((example) => `- ${example.id}`), ...added.map((example) => `+ ${example.id}, source ${example.source}`)];
  for (const [before, after] of both) {
    const expectChanges = [...new Set([...Object.keys(before.expect), ...Object.keys(after.expect)])].flatMap((fact) =>
      fieldChange(`expect ${fact}`, before.expect[fact], after.expect[fact], (value) => (value === undefined ? '(none)' : formatFigure(value, money.has(fact)))),
    );
    const detail = [...fieldChange('facts', before.facts, after.facts), ...expectChanges, ...fieldChange('source', before.source, after.source), ...fieldChange('note', before.note, after.note)];
    if (detail.length > 0) lines.push(`~ ${after.id}`, ...detail.map((line) => `    ${line}`));
  }
  return { title: 'Examples (definitions)', lines };
}
