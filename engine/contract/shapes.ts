import { GRAPH_ISSUE_KINDS } from '../model/diagnostics.ts';
import { FACT_AUTHORITIES, HELP_MODES, LEDGER_EFFECTS, QUESTION_INPUT_KINDS, SOURCE_POLICIES } from '../model/pack.ts';
import { object, ref, tagged, type SchemaType } from './schema-type.ts';

const string = { type: 'string' } as const;
const strings = { type: 'array', items: string } as const;
const anyValue = (description: string) => ({ description }) as const;

/**
 * The JSON Schemas of every shape the engine hands out (reports, traces, catalog descriptors): the one
 * definition of each. The engine's TypeScript types below are derived from them, and the service's
 * API description uses them, narrowing only the values the contract fixes (currencies, source kinds,
 * rounding names, calculator ids) to what it serves. A report writer test checks written reports
 * against them.
 */
export const CONTRACT_SCHEMAS = {
  Money: tagged('Money', { cents: { type: 'integer', description: 'Whole cents.' }, currency: string }),
  Context: object({ jurisdiction: string, taxYear: string }),
  SourceRef: tagged('SourceRef', { kind: string, reference: string, title: string }),
  EffectivePeriod: object({ from: { type: 'string', format: 'date' }, toExclusive: { type: ['string', 'null'], format: 'date' } }, ['from']),
  CalculatorEntry: object({
    calculatorId: string,
    context: ref('Context'),
    description: string,
    inputFactIds: strings,
    outputFactIds: strings,
    reportSchemaName: string,
    ruleIds: strings,
    supportedHelpModes: { type: 'array', items: { enum: HELP_MODES } },
    title: string,
  }),
  FactQuestion: tagged(
    'FactQuestion',
    { id: string, inputKind: { enum: QUESTION_INPUT_KINDS }, prompt: string, helpText: { type: ['string', 'null'] } },
    ['id', 'inputKind', 'prompt'],
  ),
  FactDescriptor: object(
    {
      authority: { enum: [...FACT_AUTHORITIES, 'parameter'] },
      id: string,
      question: { oneOf: [ref('FactQuestion'), { type: 'null' }] },
      schemaTag: string,
      title: string,
    },
    ['authority', 'id', 'schemaTag', 'title'],
  ),
  FactHelp: object({ factId: string, title: string, question: ref('FactQuestion') }, ['factId', 'title']),
  RuleParameter: object({ id: string, title: string, source: ref('SourceRef'), effectivePeriod: ref('EffectivePeriod') }),
  RuleDescriptor: object(
    {
      id: string,
      title: string,
      parameters: { type: 'array', items: ref('RuleParameter') },
      provides: strings,
      requires: strings,
      sourcePolicy: { enum: SOURCE_POLICIES },
      sources: { type: 'array', items: ref('SourceRef') },
      allowDuplicateProvides: { type: ['boolean', 'null'] },
    },
    ['id', 'title', 'parameters', 'provides', 'requires', 'sourcePolicy', 'sources'],
  ),
  GraphEdge: object({ from: string, ruleId: string, to: string }),
  GraphValidationIssue: tagged('GraphValidationIssue', { kind: { enum: GRAPH_ISSUE_KINDS }, message: string }),
  ParameterTrace: object(
    {
      title: string,
      unit: string,
      effectivePeriod: ref('EffectivePeriod'),
      source: { type: 'string', description: 'The id of the declared source of this value.' },
      value: anyValue('The value as written in the pack, for a value that is not a table.'),
      matchedRow: { type: 'integer', minimum: 1, description: 'For a table: the number of the row that matched, from 1.' },
      row: { type: 'object', description: 'For a table: the matched row as written in the pack.' },
      amountBelowRow: { type: 'string', description: 'For a marginal-rate table: the amount due on everything below the matched row, in dollars.' },
    },
    ['title', 'unit', 'effectivePeriod', 'source'],
  ),
  TraceNode: tagged(
    'TraceNode',
    {
      children: { type: 'array', items: ref('TraceNode') },
      inputs: {
        ...object(
          {
            facts: { type: 'object', additionalProperties: anyValue('A fact the step read, in its JSON form.') },
            parameters: { type: 'object', additionalProperties: ref('ParameterTrace') },
            intermediate: { type: 'object', additionalProperties: anyValue('A value the formula named (`let`) on the way; amounts in cents.') },
            beforeRounding: { type: 'string', description: "The exact result before the rule's rounding, when rounding changed it." },
          },
          ['facts', 'parameters'],
        ),
        description: 'The facts and parameter values (with their effective periods) the step read, and any named intermediate values.',
      },
      result: anyValue('What the step produced.'),
      ruleId: string,
      sources: { type: 'array', items: ref('SourceRef') },
      title: string,
      formula: { type: ['string', 'null'] },
      rounding: { type: ['string', 'null'] },
    },
    ['children', 'inputs', 'result', 'ruleId', 'sources', 'title'],
  ),
  LedgerComponent: tagged('LedgerComponent', {
    amount: ref('Money'),
    effect: { enum: LEDGER_EFFECTS },
    id: string,
    label: string,
    status: { enum: ['active', 'disabled', 'zeroed'] },
    trace: ref('TraceNode'),
  }),
};

/** The names of the contract's shapes. */
export type ContractShapeName = keyof typeof CONTRACT_SCHEMAS;

/** The TypeScript type of a contract shape, derived from its schema. */
export type ContractShape<Name extends ContractShapeName> = SchemaType<(typeof CONTRACT_SCHEMAS)[Name], typeof CONTRACT_SCHEMAS>;

export type Money = ContractShape<'Money'>;
export type SourceRef = ContractShape<'SourceRef'>;
export type EffectivePeriodJson = ContractShape<'EffectivePeriod'>;
export type CalculatorEntry = ContractShape<'CalculatorEntry'>;
export type FactQuestion = ContractShape<'FactQuestion'>;
export type FactDescriptor = ContractShape<'FactDescriptor'>;
export type FactHelp = ContractShape<'FactHelp'>;
export type RuleParameter = ContractShape<'RuleParameter'>;
export type RuleDescriptor = ContractShape<'RuleDescriptor'>;
export type GraphEdge = ContractShape<'GraphEdge'>;
export type GraphValidationIssue = ContractShape<'GraphValidationIssue'>;
export type ParameterTrace = ContractShape<'ParameterTrace'>;
export type TraceNode = ContractShape<'TraceNode'>;
export type LedgerComponent = ContractShape<'LedgerComponent'>;
