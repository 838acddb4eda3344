import { OpenApiBuilder, type HeadersObject, type OpenAPIObject, type OperationObject, type ParameterObject, type RequestBodyObject, type ResponseObject, type SchemaObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from '../../engine/index.ts';
import { documentedResponses, OPERATIONS, type OperationSpec } from './operations.ts';
import type { CatalogValues } from './components.ts';
import { CALCULATOR_ID_PATH, servedParameter } from './parameters.ts';

/**
 * The OpenAPI 3.1 document of the API, built from the operations table and the component schemas.
 * `requestExamples`: an example body of calculate per calculator id. `operations`: those served, by
 * default the contract's.
 */
export function buildOpenApiDocument(
  components: Record<string, JsonSchema>,
  values: CatalogValues,
  requestExamples: Record<string, unknown> = {},
  operations: readonly OperationSpec[] = OPERATIONS,
): OpenAPIObject {
  const { calculatorIds, taxYears, defaultTaxYear } = values;
  const years = taxYears.length === 1 ? `the ${taxYears[0]} income year` : `the ${taxYears.slice(0, -1).join(', ')} and ${taxYears.at(-1)} income years (${defaultTaxYear} unless a request names another)`;
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'Tax rules API',
      version: '0.0.1',
      description:
        `Australian tax calculators for ${years} — take-home pay, PAYG withholding and annual income tax — ` +
        'each result with its full calculation trace, legal sources and rule-pack version. All money is an integer count of cents. ' +
        'No endpoint takes credentials: authentication, tenant routing and public hosting belong to the application that deploys the service. ' +
        'Every answer a route gives is listed on its operation; the HTTP server itself may also refuse a request before any route sees it ' +
        '(408 when headers arrive too slowly, 431 when they are too large), with no body.',
    })
    .addContact({ name: 'The maintainers of tax-rules-api' })
    // The repository grants no licence; `LicenseRef-` is SPDX's form for a licence it does not list.
    .addLicense({ name: 'Proprietary: no licence is granted', identifier: 'LicenseRef-Proprietary' })
    // Relative: requests from the reference viewer (and any client reading the document) go to
    // whichever host and port served it.
    .addServer({ url: '/', description: 'The service that serves this document' })
    .addTag({ name: 'Health', description: 'Is the service up.' })
    .addTag({ name: 'Catalog', description: 'Jurisdictions, tax years, calculators, facts, rules and graphs.' })
    .addTag({ name: 'Calculators', description: 'Running a calculator.' })
    .addTag({ name: 'Documentation', description: 'The public documentation: navigation, pages and search.' })
    .addTag({ name: 'API description', description: 'This document and its viewer.' });
  for (const [name, schema] of Object.entries(components)) builder.addSchema(name, schema as SchemaObject);

  const paths = new Map<string, Record<string, OperationObject>>();
  for (const operation of operations) {
    const parameters: ParameterObject[] = [];
    if (operation.calculatorIdInPath) {
      parameters.push({
        name: 'calculatorId',
        in: 'path',
        required: true,
        description: `Calculator id. Served: ${calculatorIds.join(', ')}.`,
        schema: CALCULATOR_ID_PATH as SchemaObject,
      });
    }
    for (const query of operation.query.map((parameter) => servedParameter(parameter, values))) {
      parameters.push({ name: query.name, in: 'query', required: query.required, description: query.description, schema: query.schema as SchemaObject });
    }
    const responses: Record<string, ResponseObject> = {};
    for (const [status, response] of Object.entries(documentedResponses(operation))) {
      const mediaType = response.mediaType ?? 'application/json';
      responses[status] = {
        description: response.description,
        ...(response.headers ? { headers: response.headers as HeadersObject } : {}),
        content: { [mediaType]: response.schema ? { schema: { $ref: `#/components/schemas/${response.schema}` } } : { schema: mediaType === 'application/json' ? { type: 'object' } : { type: 'string' } } },
      };
    }
    const item = paths.get(operation.path) ?? {};
    item[operation.method] = {
      operationId: operation.operationId,
      tags: [operation.tag],
      summary: operation.summary,
      description: operation.description,
      parameters,
      ...(operation.requestBody ? { requestBody: requestBodyOf(operation.requestBody, operation.calculatorIdInPath ? requestExamples : {}) } : {}),
      responses,
    };
    paths.set(operation.path, item);
  }
  for (const [path, item] of paths) builder.addPath(path, item);
  // Said outright, not left out: no operation needs credentials.
  builder.rootDoc.security = [];
  return withoutEmptyComponents(builder.getSpec());
}

// The builder starts every component map empty; an empty `securitySchemes` makes viewers offer an
// "Authorize" button on an API that takes no credentials.
function withoutEmptyComponents(document: OpenAPIObject): OpenAPIObject {
  const components = Object.fromEntries(Object.entries(document.components ?? {}).filter(([, entries]) => Object.keys(entries as object).length > 0));
  return { ...document, components };
}

/** A JSON request body, with an example per calculator where the body depends on the calculator in the path. */
function requestBodyOf(schemaName: string, examples: Record<string, unknown>): RequestBodyObject {
  const named = Object.entries(examples).map(([calculatorId, value]) => [calculatorId, { summary: `A request to ${calculatorId}`, value }]);
  return {
    required: true,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` }, ...(named.length > 0 ? { examples: Object.fromEntries(named) } : {}) } },
  };
}
