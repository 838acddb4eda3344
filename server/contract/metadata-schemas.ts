import { CONTRACT_SCHEMAS, object, ref, type SchemaType } from '../../engine/index.ts';

const string = { type: 'string' } as const;

/**
 * The JSON Schemas of the metadata answers (health, the listings, a calculator's schema and graph):
 * the one definition of each. The service's metadata types are derived from them; the API
 * description uses them as they are.
 */
export const METADATA_SCHEMAS = {
  Health: object({ service: { const: 'tax-rules-api' }, status: { const: 'ok' } }),
  JurisdictionList: object({ jurisdictions: { type: 'array', items: object({ code: string, title: string }) } }),
  TaxYearList: object({ taxYears: { type: 'array', items: object({ jurisdiction: string, taxYear: string }) } }),
  CalculatorList: object({ calculators: { type: 'array', items: ref('CalculatorEntry') } }),
  FactList: object({ facts: { type: 'array', items: ref('FactDescriptor') } }),
  RuleList: object({ rules: { type: 'array', items: ref('RuleDescriptor') } }),
  CalculatorSchema: object({
    calculator: ref('CalculatorEntry'),
    inputFacts: { type: 'array', items: ref('FactDescriptor') },
    outputFacts: { type: 'array', items: ref('FactDescriptor') },
    reportSchemaName: string,
    rules: { type: 'array', items: ref('RuleDescriptor') },
  }),
  CalculatorGraph: object({
    calculator: ref('CalculatorEntry'),
    edges: { type: 'array', items: ref('GraphEdge') },
    facts: { type: 'array', items: ref('FactDescriptor') },
    rules: { type: 'array', items: ref('RuleDescriptor') },
    validationIssues: { type: 'array', items: ref('GraphValidationIssue') },
  }),
};

export type MetadataShapeName = keyof typeof METADATA_SCHEMAS;

/** The TypeScript type of a metadata answer, derived from its schema. */
export type MetadataShape<Name extends MetadataShapeName> = SchemaType<(typeof METADATA_SCHEMAS)[Name], typeof METADATA_SCHEMAS & typeof CONTRACT_SCHEMAS>;
