import type { Evaluator } from '../expressions/compile.ts';
import type { JsonSchema } from '../contract/schema-type.ts';
import type { SourceRef } from '../contract/shapes.ts';
import { renderFormula } from '../expressions/formula-render.ts';
import type { ResolvedParameter, Value } from '../expressions/values.ts';
import type { Decimal } from '../money/decimal.ts';
import { roundingFunction } from '../money/rounding.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { CalculatorDef, FactDef, LedgerComponentDef, PackDef, ReportObjectTemplate, RuleDef } from '../model/pack.ts';
import { compileTemplate, templateFacts, templateProblems, type ReportWriter } from '../report/fields.ts';
import { traceText, type TraceText } from '../report/trace-text.ts';
import type { CheckedPack } from '../validate/check-pack.ts';
import { factsChecker, type InputIssue } from './decode.ts';
import { resolveParameter, sourceRefOf } from './parameters.ts';
import { decoderOf, encoderOf, jsonSchemaOf } from './shapes.ts';

/** One rule, ready to run inside one calculator. */
export interface PlanStep {
  index: number;
  rule: RuleDef;
  inputSlots: number[];
  outputSlot: number;
  outputFact: FactDef;
  isMoney: boolean;
  parameters: ResolvedParameter[];
  evaluate?: Evaluator;
  letCount: number;
  letNames: readonly string[];
  ledger?: { components: readonly LedgerComponentDef[]; slots: number[] };
  round: (cents: Decimal) => Decimal;
  roundingName: string;
  formula: string;
  /** Steps that provide this step's derived inputs, in the order of `requires`. */
  childSteps: number[];
  ruleSources: readonly SourceRef[];
  encodeOutput: (value: Value) => unknown;
  /** What its trace node says that is the same on every run, as JSON text. */
  traceText: TraceText;
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
        const value = resolveParameter(parameters.get(parameterId)!, pack.taxYear, sources, parameterIndex);
        // checkPack reports a parameter without a value for the whole year as a `parameter-gap`.
        if (!value) throw new Error(`parameter ${parameterId} has no value for the whole ${pack.taxYear.id} year: plan only packs without diagnostics`);
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
        encodeOutput: encoderOf(outputFact.shape, pack.currency),
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
    };
    const problems = templateProblems(def.report, plan);
    for (const problem of problems) {
      diagnostics.push({ kind: 'reference', message: `calculator \`${def.id}\` report: ${problem.message}`, location: def.locate(['report', ...problem.path]) });
    }
    if (problems.length === 0) plans.push({ ...plan, writeReport: compileTemplate(def.report, plan) });
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
  return { ...plan, report, writeReport: compileTemplate(report, plan) };
}
