import type { Evaluator } from '../expressions/compile.ts';
import type { JsonSchema } from '../contract/schema-type.ts';
import type { SourceRef } from '../contract/shapes.ts';
import { renderFormula } from '../expressions/formula-render.ts';
import type { Value } from '../expressions/values.ts';
import type { Decimal } from '../money/decimal.ts';
import { roundingFunction } from '../money/rounding.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { CalculatorDef, FactDef, LedgerComponentDef, PackDef, ParameterDef, ReportObjectTemplate, RuleDef } from '../model/pack.ts';
import { compileTemplate, templateFacts, templateProblems, type ReportWriter, type TemplateProblem } from '../report/fields.ts';
import { traceText } from '../trace/text.ts';
import type { TracedStep } from '../trace/write.ts';
import type { CheckedPack } from '../validate/check-pack.ts';
import { factsChecker, type InputIssue } from './decode.ts';
import { changesWithin, resolveParameter, sourceRefOf, valueInEffect } from './parameters.ts';
import { decoderOf, jsonSchemaOf } from '../contract/fact-shapes.ts';

/** One rule, ready to run inside one calculator. */
export interface PlanStep extends TracedStep {
  index: number;
  rule: RuleDef;
  outputSlot: number;
  outputFact: FactDef;
  isMoney: boolean;
  evaluate?: Evaluator;
  letCount: number;
  letNames: readonly string[];
  ledger?: { components: readonly LedgerComponentDef[]; slots: number[] };
  round: (cents: Decimal) => Decimal;
  roundingName: string;
  formula: string;
}

/** Everything needed to run one calculator many times, worked out once. */
export interface CalculatorPlan {
  def: CalculatorDef;
  pack: PackDef;
  context: { jurisdiction: string; taxYear: string };
  rulePackVersion: string;
  inputFacts: FactDef[];
  /** Schema of the `facts` object, shared by decoding and the API description. */
  factsSchema: JsonSchema;
  /** What is wrong with a `facts` object, by its schema; none when it is valid. */
  factIssues: (facts: unknown) => InputIssue[];
  inputs: { factId: string; slot: number; decode: (json: unknown) => Value }[];
  steps: PlanStep[];
  slotCount: number;
  slotOf: ReadonlyMap<string, number>;
  stepOfFact: ReadonlyMap<string, number>;
  report: ReportObjectTemplate;
  /** Writes the report of a run, as its template says; compiled from `report` when the plan is built. */
  writeReport: ReportWriter;
  facts: ReadonlyMap<string, FactDef>;
  /** The days its parameter values are in effect: the pack's tax year, or the part of it between two changes of value. */
  period: { from: string; toExclusive: string };
  /** The source of each parameter's value in effect for all of `period`, by parameter id. */
  parameterSources: ReadonlyMap<string, SourceRef>;
  /**
   * For a calculator that names a date fact (`parametersInEffectOn`): a plan for each part of the
   * year between changes of the values it reads, one after another; a run takes the one whose
   * period holds the date, and a date outside the year is refused before any rule runs. This plan
   * is the first of them, with this added.
   */
  byDate?: { factId: string; slot: number; parts: readonly CalculatorPlan[] };
}

/**
 * Builds the run plan of each calculator of a checked pack: the rules it needs in dependency order,
 * each fact's slot, parameters resolved for the pack's tax year, and the facts schema.
 * Call only for packs without diagnostics; template problems are returned as diagnostics.
 */
export function planCalculators(checked: CheckedPack): { plans: CalculatorPlan[]; diagnostics: Diagnostic[] } {
  const { pack } = checked;
  const diagnostics: Diagnostic[] = [];
  const facts = new Map(pack.facts.map((fact) => [fact.id, fact]));
  const parameters = new Map(pack.parameters.map((parameter) => [parameter.id, parameter]));
  const sources = new Map(pack.sources.map((source) => [source.id, source]));
  const plans: CalculatorPlan[] = [];

  /** The plan of a calculator's rules (in run order) with each parameter's value in effect for all of the period. */
  const planOne = (def: CalculatorDef, order: readonly RuleDef[], period: { from: string; toExclusive: string }): { plan?: CalculatorPlan; problems: TemplateProblem[] } => {
    const slotOf = new Map<string, number>();
    const slot = (factId: string) => {
      if (!slotOf.has(factId)) slotOf.set(factId, slotOf.size);
      return slotOf.get(factId)!;
    };
    const inputFacts = def.inputFacts.map((id) => facts.get(id)!);
    const inputs = inputFacts.map((fact) => ({ factId: fact.id, slot: slot(fact.id), decode: decoderOf(fact.shape) }));
    const stepOfFact = new Map<string, number>();

    const steps = order.map((rule, index): PlanStep => {
      const outputFact = facts.get(rule.provides[0]!)!;
      stepOfFact.set(outputFact.id, index);
      const resolved = rule.parameters.map((parameterId, parameterIndex) => {
        const value = resolveParameter(parameters.get(parameterId)!, period, sources, parameterIndex);
        // checkPack reports a parameter that leaves a day of the year without a value as a `parameter-gap`,
        // and datingProblems one that changes during the year for a calculator that names no date.
        if (!value) throw new Error(`parameter ${parameterId} has no value for all of ${period.from} until ${period.toExclusive}: plan only packs without diagnostics`);
        return value;
      });
      const compiled = checked.rules.get(rule.id)?.compiled;
      const mode = checked.roundingModes.get(rule.rounding)!;
      const formula = compiled?.formula ?? ledgerFormula(rule.ledger ?? []);
      const letNames = compiled?.letNames ?? [];
      return {
        index,
        rule,
        inputSlots: rule.requires.map(slot),
        outputSlot: slot(outputFact.id),
        outputFact,
        isMoney: outputFact.shape.type === 'money',
        parameters: resolved,
        ...(compiled ? { evaluate: compiled.evaluate } : {}),
        letCount: compiled?.letCount ?? 0,
        letNames,
        ...(rule.ledger ? { ledger: { components: rule.ledger, slots: rule.ledger.map((component) => slot(component.fact)) } } : {}),
        round: roundingFunction(mode),
        roundingName: mode.name,
        formula,
        childSteps: [],
        ruleSources: rule.sources.map((id) => sourceRefOf(sources.get(id)!)),
        traceText: traceText({
          rule,
          formula,
          roundingName: mode.name,
          parameters: resolved,
          requiredShapes: rule.requires.map((id) => facts.get(id)!.shape),
          outputShape: outputFact.shape,
          letNames,
          currency: pack.currency,
        }),
      };
    });
    for (const step of steps) {
      step.childSteps = step.rule.requires.filter((id) => stepOfFact.has(id)).map((id) => stepOfFact.get(id)!);
    }

    const parameterSources = new Map<string, SourceRef>();
    for (const parameter of pack.parameters) {
      const source = sources.get(valueInEffect(parameter, period)?.source ?? '');
      if (source) parameterSources.set(parameter.id, sourceRefOf(source));
    }
    const factsSchema: JsonSchema = {
      type: 'object',
      'x-expected': `an object with the fields ${def.inputFacts.join(', ')}`,
      required: [...def.inputFacts],
      additionalProperties: false,
      properties: Object.fromEntries(inputFacts.map((fact) => [fact.id, { ...jsonSchemaOf(fact.shape, pack.currency), description: fact.title }])),
    };
    const plan = {
      def,
      pack,
      context: { jurisdiction: pack.jurisdiction.code, taxYear: pack.taxYear.id },
      rulePackVersion: `${pack.id}/${pack.version}`,
      inputFacts,
      factsSchema,
      factIssues: factsChecker(factsSchema),
      inputs,
      steps,
      slotCount: slotOf.size,
      slotOf,
      stepOfFact,
      report: def.report,
      facts,
      period,
      parameterSources,
    };
    const problems = templateProblems(def.report, plan);
    return problems.length > 0 ? { problems } : { plan: { ...plan, writeReport: compileTemplate(def.report, plan) }, problems };
  };

  for (const def of pack.calculators) {
    const order: RuleDef[] = [];
    const placed = new Set<string>();
    const place = (factId: string) => {
      const rule = checked.providers.get(factId)?.[0];
      if (!rule || placed.has(rule.id)) return;
      placed.add(rule.id);
      for (const required of rule.requires) place(required);
      order.push(rule);
    };
    for (const factId of [...def.outputFacts, ...templateFacts(def.report)]) place(factId);

    const read = [...new Set(order.flatMap((rule) => rule.parameters))].map((id) => parameters.get(id)!);
    const changes = changesWithin(read, pack.taxYear);
    const dateFact = def.parametersInEffectOn;
    const problems = datingProblems(def, facts, read, changes, pack.taxYear);
    if (problems.length > 0) {
      diagnostics.push(...problems);
      continue;
    }
    const bounds = dateFact ? [pack.taxYear.from, ...changes, pack.taxYear.toExclusive] : [pack.taxYear.from, pack.taxYear.toExclusive];
    const parts: CalculatorPlan[] = [];
    const reported = new Set<string>();
    for (let index = 0; index + 1 < bounds.length; index++) {
      const planned = planOne(def, order, { from: bounds[index]!, toExclusive: bounds[index + 1]! });
      for (const problem of planned.problems) {
        const diagnostic = { kind: 'reference' as const, message: `calculator \`${def.id}\` report: ${problem.message}`, location: def.locate(['report', ...problem.path]) };
        if (!reported.has(diagnostic.message)) diagnostics.push(diagnostic);
        reported.add(diagnostic.message);
      }
      if (planned.plan) parts.push(planned.plan);
    }
    if (parts.length + 1 !== bounds.length) continue;
    plans.push(dateFact ? { ...parts[0]!, byDate: { factId: dateFact, slot: parts[0]!.slotOf.get(dateFact)!, parts } } : parts[0]!);
  }
  return { plans, diagnostics };
}

function ledgerFormula(components: readonly LedgerComponentDef[]): string {
  // Written as the expression it amounts to, so that it reads like every other formula.
  let sum: unknown;
  let addends: unknown[] | undefined;
  for (const component of components) {
    if (component.effect === 'informational') continue;
    const amount = { var: component.fact };
    if (sum === undefined) {
      sum = component.effect === 'subtractive' ? { '-': [amount] } : amount;
    } else if (component.effect === 'subtractive') {
      sum = { '-': [sum, amount] };
      addends = undefined;
    } else if (addends) {
      addends.push(amount);
    } else {
      addends = [sum, amount];
      sum = { '+': addends };
    }
  }
  return sum === undefined ? '' : renderFormula(sum);
}

/** The plan with another report template: the same calculation, reported differently. */
export function planWithReport(plan: CalculatorPlan, report: ReportObjectTemplate): CalculatorPlan {
  const problems = templateProblems(report, plan);
  if (problems.length > 0) throw new Error(`the report template does not fit calculator ${plan.def.id}: ${problems.map((problem) => problem.message).join('; ')}`);
  const reported = { ...plan, report, writeReport: compileTemplate(report, plan) };
  if (!plan.byDate) return reported;
  return { ...reported, byDate: { ...plan.byDate, parts: plan.byDate.parts.map((part) => planWithReport(part, report)) } };
}

/**
 * Why a calculator cannot choose its parameters' values: a date fact that is not one of its inputs
 * or not a date, or (with no date fact) a parameter it reads whose value changes during the year.
 */
function datingProblems(def: CalculatorDef, facts: ReadonlyMap<string, FactDef>, read: readonly ParameterDef[], changes: readonly string[], year: PackDef['taxYear']): Diagnostic[] {
  const dateFact = def.parametersInEffectOn;
  if (dateFact !== undefined) {
    const at = def.locate(['parametersInEffectOn']);
    if (!def.inputFacts.includes(dateFact)) return [{ kind: 'reference', message: `calculator \`${def.id}\` chooses parameter values by \`${dateFact}\`, which is not one of its inputFacts`, location: at }];
    if (facts.get(dateFact)?.shape.type !== 'date') return [{ kind: 'reference', message: `calculator \`${def.id}\` chooses parameter values by \`${dateFact}\`, which is not a date fact (shape \`{ type: date }\`)`, location: at }];
    return [];
  }
  return read
    .map((parameter) => ({ parameter, days: changesWithin([parameter], year) }))
    .filter(({ days }) => days.length > 0)
    .map(({ parameter, days }) => ({
      kind: 'parameter-gap' as const,
      message:
        `calculator \`${def.id}\` reads parameter \`${parameter.id}\`, whose value changes during the ${year.id} tax year (on ${days.join(', ')}), but names no date to choose the value by. ` +
        `Fix: name the calculator's date input with \`parametersInEffectOn\`, or give the parameter one value for the whole year`,
      location: def.at,
    }));
}
