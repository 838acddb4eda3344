import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Evaluator } from '../expressions/compile.ts';
import { renderFormula } from '../expressions/formula-render.ts';
import type { ParameterRead, ResolvedParameter, SourceRefJson, Value } from '../expressions/values.ts';
import { roundingFunction } from '../money/rounding.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { CalculatorDef, FactDef, FactShape, LedgerComponentDef, PackDef, ReportFieldTemplate, ReportObjectTemplate, RuleDef } from '../model/pack.ts';
import { reportFacts, type CheckedPack } from '../validate/check-pack.ts';
import { compileSchema } from './decode.ts';
import { resolveParameter, sourceRefOf } from './parameters.ts';
import { decoderOf, encoderOf, jsonSchemaOf, type JsonSchema } from './shapes.ts';

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
  round: (cents: import('../money/decimal.ts').Decimal) => import('../money/decimal.ts').Decimal;
  roundingName: string;
  formula: string;
  /** Steps that provide this step's derived inputs, in the order of `requires`. */
  childSteps: number[];
  ruleSources: readonly SourceRefJson[];
  encodeInputs: ((value: Value) => unknown)[];
  encodeOutput: (value: Value) => unknown;
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
  validateFacts: ValidateFunction;
  inputs: { factId: string; slot: number; decode: (json: unknown) => Value }[];
  steps: PlanStep[];
  slotCount: number;
  slotOf: ReadonlyMap<string, number>;
  stepOfFact: ReadonlyMap<string, number>;
  report: ReportObjectTemplate;
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
    for (const factId of [...def.outputFacts, ...reportFacts(def.report)]) place(factId);

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
        letNames: compiled?.letNames ?? [],
        ...(rule.ledger ? { ledger: { components: rule.ledger, slots: rule.ledger.map((component) => slot(component.fact)) } } : {}),
        round: roundingFunction(mode),
        roundingName: mode.name,
        formula: compiled?.formula ?? ledgerFormula(rule.ledger ?? []),
        childSteps: [],
        ruleSources: rule.sources.map((id) => sourceRefOf(sources.get(id)!)),
        encodeInputs: rule.requires.map((id) => encoderOf(facts.get(id)!.shape, pack.currency)),
        encodeOutput: encoderOf(outputFact.shape, pack.currency),
      };
    });
    for (const step of steps) {
      step.childSteps = step.rule.requires.filter((id) => stepOfFact.has(id)).map((id) => stepOfFact.get(id)!);
    }

    const templateProblems = checkTemplate(def, def.report, [], facts, stepOfFact, steps);
    for (const problem of templateProblems) {
      diagnostics.push({ kind: 'reference', message: `calculator \`${def.id}\` report: ${problem.message}`, location: def.locate(['report', ...problem.path]) });
    }

    const factsSchema: JsonSchema = {
      type: 'object',
      'x-expected': `an object with the fields ${def.inputFacts.join(', ')}`,
      required: [...def.inputFacts],
      additionalProperties: false,
      properties: Object.fromEntries(inputFacts.map((fact) => [fact.id, { ...jsonSchemaOf(fact.shape, pack.currency), description: fact.title }])),
    };
    plans.push({
      def,
      pack,
      context: { jurisdiction: pack.jurisdiction.code, taxYear: pack.taxYear.id },
      rulePackVersion: `${pack.id}/${pack.version}`,
      inputFacts,
      factsSchema,
      validateFacts: compileSchema(factsSchema),
      inputs,
      steps,
      slotCount: slotOf.size,
      slotOf,
      stepOfFact,
      report: def.report,
      facts,
    });
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

/** The sources a step's trace shows: its rule's, then those of the parameter values it read. */
export function traceSources(step: PlanStep, reads: readonly ParameterRead[]): { sources: readonly SourceRefJson[]; added: string[] } {
  let sources = step.ruleSources;
  const added: string[] = [];
  for (const read of reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    const known = sources.some((source) => source === parameter.source || (source.kind === parameter.source.kind && source.reference === parameter.source.reference && source.title === parameter.source.title));
    if (!known) {
      sources = [...sources, parameter.source];
      added.push(parameter.sourceId);
    }
  }
  return { sources, added };
}

/** The shape at a dotted path into a fact, or undefined. */
export function shapeAt(facts: ReadonlyMap<string, FactDef>, path: string): FactShape | undefined {
  const [root, ...fields] = path.split('.');
  let shape: FactShape | undefined = facts.get(root!)?.shape;
  for (const field of fields) shape = shape?.type === 'record' ? shape.fields[field] : undefined;
  return shape;
}

function checkTemplate(
  def: CalculatorDef,
  template: ReportObjectTemplate,
  path: string[],
  facts: ReadonlyMap<string, FactDef>,
  stepOfFact: ReadonlyMap<string, number>,
  steps: PlanStep[],
): { message: string; path: string[] }[] {
  const problems: { message: string; path: string[] }[] = [];
  for (const [name, field] of Object.entries(template.fields) as [string, ReportFieldTemplate][]) {
    const at = [...path, 'fields', name];
    const available = (id: string) => def.inputFacts.includes(id) || stepOfFact.has(id);
    if ('fields' in field) problems.push(...checkTemplate(def, field, at, facts, stepOfFact, steps));
    else if ('money' in field) {
      if (shapeAt(facts, field.money)?.type !== 'money') problems.push({ message: `\`${field.money}\` is not a money fact`, path: at });
      else if (!available(field.money.split('.')[0]!)) problems.push({ message: `\`${field.money}\` is not available to this calculator`, path: at });
    } else if ('fact' in field) {
      if (!shapeAt(facts, field.fact)) problems.push({ message: `\`${field.fact}\` is not a fact or fact field`, path: at });
    } else if ('trace' in field) {
      if (!stepOfFact.has(field.trace)) problems.push({ message: `\`${field.trace}\` is not derived by a rule of this calculator`, path: at });
    } else if ('ledgerComponents' in field) {
      const step = stepOfFact.get(field.ledgerComponents);
      if (step === undefined || !steps[step]!.ledger) problems.push({ message: `\`${field.ledgerComponents}\` is not provided by a ledger rule`, path: at });
    }
  }
  return problems;
}
