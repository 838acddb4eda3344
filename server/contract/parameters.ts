import { DOCS_SCHEMAS } from '../../docs-site/snapshot.ts';
import { HELP_MODES, type JsonSchema } from '../../engine/index.ts';
import { CALCULATOR_ID_PATTERN_SOURCE } from './calculator-id.ts';
import type { CatalogValues } from './components.ts';

/** A query parameter: its schema (shared by validation and the API description) and its wording. */
export interface QueryParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
  description: string;
  /** The rule it must follow, in words, for error messages that never repeat the value. */
  rule: string;
  /** For a parameter naming catalog values: its wording and examples from the values served. */
  served?: (values: CatalogValues) => { description: string; rule: string; examples: string[] };
}

/** A parameter as a service with these catalog values describes and checks it. */
export function servedParameter(parameter: QueryParameter, values: CatalogValues): QueryParameter {
  if (!parameter.served) return parameter;
  const { description, rule, examples } = parameter.served(values);
  return { ...parameter, description, rule, schema: { ...parameter.schema, examples } };
}

export const JURISDICTION_QUERY: QueryParameter = {
  name: 'jurisdiction',
  required: false,
  schema: { type: 'string', pattern: '^[A-Z]{2,3}$' },
  description: 'Jurisdiction code.',
  rule: 'be an upper-case jurisdiction code',
  served: (values) => ({
    description: `Jurisdiction code. Served: ${values.jurisdictions.join(', ')}.`,
    rule: `be an upper-case jurisdiction code such as ${values.jurisdictions[0]}`,
    examples: values.jurisdictions.slice(0, 1),
  }),
};

/** The tax year of a listing: only entries of that year. */
export const TAX_YEAR_QUERY: QueryParameter = {
  name: 'taxYear',
  required: false,
  schema: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
  description: 'Income year, written YYYY-YY.',
  rule: 'be a tax year written YYYY-YY',
  served: (values) => ({
    description: `Income year, written YYYY-YY. Served: ${values.taxYears.join(', ')}.`,
    rule: `be a tax year written YYYY-YY, such as ${values.defaultTaxYear}`,
    examples: [values.defaultTaxYear],
  }),
};

/** The tax year of one calculator: left out, the service's default tax year. */
export const CALCULATOR_TAX_YEAR_QUERY: QueryParameter = {
  ...TAX_YEAR_QUERY,
  served: (values) => ({
    ...TAX_YEAR_QUERY.served!(values),
    description: `Income year, written YYYY-YY. Served: ${values.taxYears.join(', ')}; without it, ${values.defaultTaxYear}.`,
  }),
};

export const HELP_QUERY: QueryParameter = {
  name: 'help',
  required: false,
  schema: { enum: [...HELP_MODES], default: 'errors' },
  description: 'How much help a decode error carries: none, errors (default), schema, examples, sources or full.',
  rule: `be one of ${HELP_MODES.join(', ')}`,
};

export const CALCULATOR_QUERY: QueryParameter = {
  name: 'calculator',
  required: false,
  schema: { type: 'string', pattern: CALCULATOR_ID_PATTERN_SOURCE, examples: ['au.pay.take-home'] },
  description: 'Only the facts or rules of this calculator.',
  rule: 'be a calculator id such as au.pay.take-home',
};

/** A docs path, as a page's own `path` is defined. */
const DOCS_PATH = DOCS_SCHEMAS.DocsPage.properties.path;

export const DOCS_PATH_QUERY: QueryParameter = {
  name: 'path',
  required: true,
  schema: { ...DOCS_PATH, examples: ['/overview'] },
  description: 'Documentation page path, e.g. /guides/read-a-trace.',
  rule: `be ${DOCS_PATH.minLength} to ${DOCS_PATH.maxLength} characters matching ${DOCS_PATH.pattern}`,
};

export const DOCS_TERM_QUERY: QueryParameter = {
  name: 'term',
  required: true,
  schema: { type: 'string', minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$', examples: ['withholding'] },
  description: 'Search text, 1 to 100 characters, without leading or trailing whitespace.',
  rule: 'be 1 to 100 characters without leading or trailing whitespace',
};

/**
 * The path parameter of calculator routes. An id outside the pattern still gets the documented 400
 * UnsupportedCalculatorError; an empty one leaves a path that names no route (404).
 */
export const CALCULATOR_ID_PATH: JsonSchema = { type: 'string', pattern: CALCULATOR_ID_PATTERN_SOURCE, examples: ['au.pay.take-home'] };
