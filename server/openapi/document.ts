import { OpenApiBuilder, type HeadersObject, type OpenAPIObject, type OperationObject, type ParameterObject, type ResponseObject, type SchemaObject } from 'openapi3-ts/oas31';
import type { JsonSchema } from '../../engine/index.ts';
import { OPERATIONS } from './operations.ts';
import type { CatalogValues } from './components.ts';
import { CALCULATOR_ID_PATH, servedParameter } from './parameters.ts';

/** The OpenAPI 3.1 document of the API, built from the operations table and the component schemas. */
export function buildOpenApiDocument(components: Record<string, JsonSchema>, values: CatalogValues): OpenAPIObject {
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
        'No endpoint takes credentials: authentication, tenant routing and public hosting belong to the application that deploys the service.',
    })
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
  for (const operation of OPERATIONS) {
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
    for (const [status, response] of Object.entries(operation.responses)) {
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
      ...(operation.requestBody
        ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${operation.requestBody}` } } } } }
        : {}),
      responses,
    };
    paths.set(operation.path, item);
  }
  for (const [path, item] of paths) builder.addPath(path, item);
  return withoutEmptyComponents(builder.getSpec());
}

// The builder starts every component map empty; an empty `securitySchemes` makes viewers offer an
// "Authorize" button on an API that takes no credentials.
function withoutEmptyComponents(document: OpenAPIObject): OpenAPIObject {
  const components = Object.fromEntries(Object.entries(document.components ?? {}).filter(([, entries]) => Object.keys(entries as object).length > 0));
  return { ...document, components };
}
