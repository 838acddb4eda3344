import type { CalculatorEntry, FactDescriptor, FactQuestion, GraphEdge, RuleDescriptor } from '../contract/shapes.ts';
import type { FactDef, RuleDef } from '../model/pack.ts';
import { resolveParameter, sourceRefOf } from '../run/parameters.ts';
import type { CalculatorPlan } from '../run/plan.ts';

/** A calculator's catalog entry. */
export function calculatorEntry(plan: CalculatorPlan): CalculatorEntry {
  const { def } = plan;
  return {
    calculatorId: def.id,
    context: { ...plan.context },
    description: def.description,
    inputFactIds: [...def.inputFacts],
    outputFactIds: [...def.outputFacts],
    reportSchemaName: def.reportSchemaName,
    ruleIds: plan.steps.map((step) => step.rule.id),
    supportedHelpModes: [...def.supportedHelpModes],
    title: def.title,
  };
}

/** The question a fact asks its user, as the API shows it, or null for a fact without one. */
export function questionOf(fact: FactDef): FactQuestion | null {
  if (!fact.question) return null;
  return {
    _tag: 'FactQuestion',
    id: fact.question.id,
    inputKind: fact.question.inputKind,
    prompt: fact.question.prompt,
    helpText: fact.question.helpText ?? null,
  };
}

/** A fact as the API describes it. */
export function factDescriptor(fact: FactDef): FactDescriptor {
  return { authority: fact.authority, id: fact.id, question: questionOf(fact), schemaTag: fact.schemaTag, title: fact.title };
}

/** A rule as the API describes it, with each parameter's value period for the calculator's year (for a calculator whose values change during the year, for its first part). */
export function ruleDescriptor(plan: CalculatorPlan, rule: RuleDef): RuleDescriptor {
  const sources = new Map(plan.pack.sources.map((source) => [source.id, source]));
  const parameters = new Map(plan.pack.parameters.map((parameter) => [parameter.id, parameter]));
  return {
    id: rule.id,
    title: rule.title,
    parameters: rule.parameters.map((id, index) => {
      const parameter = parameters.get(id)!;
      const resolved = resolveParameter(parameter, plan.period, sources, index);
      const value = resolved ?? { effectivePeriod: parameter.values.at(-1)!.effectivePeriod, source: sourceRefOf(sources.get(parameter.values.at(-1)!.source)!) };
      return { id, title: parameter.title, source: value.source, effectivePeriod: { ...value.effectivePeriod } };
    }),
    provides: [...rule.provides],
    requires: [...rule.requires],
    sourcePolicy: rule.sourcePolicy,
    sources: rule.sources.map((id) => sourceRefOf(sources.get(id)!)),
    allowDuplicateProvides: rule.allowDuplicateProvides ?? null,
  };
}

/** Facts of a calculator: its inputs, then the facts its rules derive, in run order. */
export function calculatorFacts(plan: CalculatorPlan): FactDef[] {
  return [...plan.inputFacts, ...plan.steps.map((step) => step.outputFact)];
}

/** One edge per (required fact → provided fact) pair of each rule, in rule order. */
export function graphEdges(plan: CalculatorPlan): GraphEdge[] {
  return plan.steps.flatMap((step) => step.rule.requires.flatMap((from) => step.rule.provides.map((to) => ({ from, ruleId: step.rule.id, to }))));
}
