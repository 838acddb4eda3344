import { ref, tagged, type CONTRACT_SCHEMAS, type SchemaType } from '../../engine/index.ts';

/**
 * The `diagnostics` of every calculation answer: the graph issues of the calculator's pack. The one
 * definition of the shape; the API description uses the schema, the calculate route the type.
 */
export const CALCULATION_DIAGNOSTICS = tagged('CalculationDiagnostics', { graphIssues: { type: 'array', items: ref('GraphValidationIssue') } });

export type CalculationDiagnostics = SchemaType<typeof CALCULATION_DIAGNOSTICS, typeof CONTRACT_SCHEMAS>;
