import { DOCS_SCHEMAS } from '../../docs-site/snapshot.ts';
import { ROUNDING_NAMES, SOURCE_KINDS } from './enumerations.ts';
import { CONTRACT_SCHEMAS, object, ref, reportSchemas, type Catalog, type JsonSchema } from '../../engine/index.ts';
import { ERROR_SCHEMAS } from './error-schemas.ts';
import { METADATA_SCHEMAS } from './metadata-schemas.ts';
import { CALCULATION_DIAGNOSTICS } from './calculation-schemas.ts';
import { calculatorPairSchemas, calculatorsById, requestSchemaName, responseSchemaName } from './calculator-pairs.ts';

/** A contract schema with some properties narrowed to the values this service serves. */
function narrowed(schema: JsonSchema, properties: Record<string, JsonSchema>): JsonSchema {
  return { ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), ...properties } };
}

/** The values the catalog actually serves, which the contract's enumerations name. */
export interface CatalogValues {
  calculatorIds: string[];
  jurisdictions: string[];
  /** Earliest first. */
  taxYears: string[];
  currencies: string[];
  /** The tax year a request without one gets. */
  defaultTaxYear: string;
}

/** The catalog's values; with one tax year served, it is the default unless another is given. */
export function catalogValues(catalog: Catalog, defaultTaxYear?: string): CatalogValues {
  const unique = (values: string[]) => [...new Set(values)];
  const taxYears = unique(catalog.plans.map((plan) => plan.context.taxYear)).sort();
  return {
    calculatorIds: unique(catalog.plans.map((plan) => plan.def.id)),
    jurisdictions: unique(catalog.plans.map((plan) => plan.context.jurisdiction)),
    taxYears,
    currencies: unique(catalog.plans.map((plan) => plan.pack.currency)),
    defaultTaxYear: defaultTaxYear ?? (taxYears.length === 1 ? taxYears[0]! : ''),
  };
}

/** The request body of calculate around a given facts schema: one definition for the API description and validation. */
export function calculatorRunRequestSchema(facts: JsonSchema, values: CatalogValues): JsonSchema {
  return {
    ...object(
    {
      facts: { ...facts, description: 'The calculator facts: shape A (grossPay, taxFreeThresholdClaimed) for the pay calculators, shape B (taxableIncome) for the annual calculator.' },
      jurisdiction: {
        enum: [...values.jurisdictions, null],
        description: 'Jurisdiction to calculate for; defaults to the calculator\'s own.',
        'x-expected': `${values.jurisdictions.map((value) => `"${value}"`).join(', ')} or null`,
      },
      taxYear: {
        enum: [...values.taxYears, null],
        description: `Tax year to calculate for; without it, or with null, ${values.defaultTaxYear}.`,
        'x-expected': `${values.taxYears.map((value) => `"${value}"`).join(', ')} or null`,
      },
    },
    ['facts'],
    ),
    'x-expected': 'a JSON object with facts and, optionally, jurisdiction and taxYear',
  };
}

/**
 * Every component schema of the API: the contract's shapes, with the facts and report shapes derived
 * from the loaded packs. Built once at boot; the OpenAPI document and request validation share it.
 */
export function componentSchemas(catalog: Catalog, values: CatalogValues): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {
    ...CONTRACT_SCHEMAS,
    Money: narrowed(CONTRACT_SCHEMAS.Money, { currency: { enum: values.currencies } }),
    Context: narrowed(CONTRACT_SCHEMAS.Context, { jurisdiction: { enum: values.jurisdictions }, taxYear: { enum: values.taxYears } }),
    CalculatorEntry: narrowed(CONTRACT_SCHEMAS.CalculatorEntry, { calculatorId: { enum: values.calculatorIds } }),
    SourceRef: narrowed(CONTRACT_SCHEMAS.SourceRef, { kind: { enum: SOURCE_KINDS } }),
    TraceNode: narrowed(CONTRACT_SCHEMAS.TraceNode, { rounding: { enum: [...ROUNDING_NAMES, null] } }),
    CalculationDiagnostics: CALCULATION_DIAGNOSTICS,
  };

  // Facts and reports come from the packs: each calculator's facts schema and report objects, by name.
  const reportNames: string[] = [];
  for (const plan of catalog.plans) {
    const factsName = plan.def.factsSchemaName;
    if (!schemas[factsName]) schemas[factsName] = plan.factsSchema;
    for (const [name, schema] of reportSchemas(plan)) {
      if (schemas[name]) {
        schemas[name] = mergeConsts(schemas[name]!, schema);
      } else schemas[name] = schema;
    }
    if (!reportNames.includes(plan.def.reportSchemaName)) reportNames.push(plan.def.reportSchemaName);
  }
  // Which calculator takes which facts and gives which report: one request and one response schema
  // per calculator; the operation's body is any of the requests, its answer one of the responses.
  const pairs = calculatorPairSchemas(catalog, ref, (facts) => calculatorRunRequestSchema(facts, values));
  const ids = calculatorsById(catalog).map((plan) => plan.def.id);
  schemas.CalculatorRunRequest = {
    description: 'The body of calculate: the request of the calculator named in the path.',
    anyOf: ids.map((id) => ref(requestSchemaName(id))),
  };
  schemas.CalculatorReport = { description: 'The report of a calculation; its `_tag` says which.', ...tagUnion(reportNames) };
  schemas.AnyCalculatorRunResponse = {
    ...object({ calculator: ref('CalculatorEntry'), diagnostics: ref('CalculationDiagnostics'), report: ref('CalculatorReport') }),
    description: 'The answer of calculate, whichever the calculator.',
  };
  schemas.CalculatorRunResponse = {
    description: 'The answer of calculate: the response of the calculator named in the path.',
    oneOf: ids.map((id) => ref(responseSchemaName(id))),
  };
  Object.assign(schemas, pairs);

  Object.assign(schemas, errorSchemas(values), DOCS_SCHEMAS, METADATA_SCHEMAS);
  return schemas;
}

/** One of several tagged objects, told apart by `_tag` (each schema is named as its tag). */
function tagUnion(names: string[]): JsonSchema {
  return { oneOf: names.map(ref), discriminator: { propertyName: '_tag', mapping: Object.fromEntries(names.map((name) => [name, `#/components/schemas/${name}`])) } };
}

/** The same report object served by packs of different versions: allow each version's constant. */
function mergeConsts(existing: JsonSchema, next: JsonSchema): JsonSchema {
  const properties = { ...(existing.properties as Record<string, JsonSchema>) };
  for (const [name, schema] of Object.entries(next.properties as Record<string, JsonSchema>)) {
    const current = properties[name];
    if (current && 'const' in current && 'const' in schema && current.const !== schema.const) {
      properties[name] = { enum: [current.const, schema.const] };
    } else if (current && 'enum' in current && 'const' in schema && !(current.enum as unknown[]).includes(schema.const)) {
      properties[name] = { enum: [...(current.enum as unknown[]), schema.const] };
    }
  }
  return { ...existing, properties };
}

function errorSchemas(values: CatalogValues): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {
    ...ERROR_SCHEMAS,
    CalculatorInputDecodeError: narrowed(ERROR_SCHEMAS.CalculatorInputDecodeError, { calculatorId: { enum: [...values.calculatorIds, null] } }),
    UnsupportedCalculatorContextError: narrowed(ERROR_SCHEMAS.UnsupportedCalculatorContextError, { requestedCalculator: { enum: values.calculatorIds } }),
  };
  const wrap = (names: string[]): JsonSchema => object({ error: names.length === 1 ? ref(names[0]!) : tagUnion(names) });
  schemas.BadRequestError = wrap(['CalculationError', 'CalculatorInputDecodeError', 'UnsupportedCalculatorError', 'UnsupportedCalculatorContextError']);
  schemas.MetadataBadRequestError = wrap(['CalculatorInputDecodeError']);
  schemas.RequestTimeoutError = wrap(['CalculatorRequestBodyTimedOut']);
  schemas.PayloadTooLargeError = wrap(['CalculatorRequestBodyTooLarge']);
  schemas.RateLimitedError = wrap(['CalculatorRateLimited']);
  schemas.UnavailableError = wrap(['CalculatorAdmissionUnavailable', 'CalculatorCapacityExceeded']);
  schemas.TimedOutError = wrap(['CalculatorOperationTimedOut']);
  return schemas;
}

