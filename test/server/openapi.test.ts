import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATIONS } from '../../server/contract/operations.ts';
import { startTestServer, type TestServer } from './helpers.ts';

let server: TestServer;
let document: any;

test.before(async () => {
  server = await startTestServer();
  document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
});
test.after(() => server.close());

test('the served document is valid OpenAPI 3.1', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  assert.match(document.openapi, /^3\.1\./);
  assert.is(document.info.version, '0.0.1');
});

test('every route of the contract is described with an operation id, tag, description and responses', () => {
  const expected = [
    'GET /api/health',
    'GET /api/docs',
    'GET /api/docs/openapi.json',
    'GET /api/v1/jurisdictions',
    'GET /api/v1/tax-years',
    'GET /api/v1/calculators',
    'GET /api/v1/calculators/{calculatorId}',
    'GET /api/v1/calculators/{calculatorId}/schema',
    'GET /api/v1/calculators/{calculatorId}/graph',
    'POST /api/v1/calculators/{calculatorId}/calculate',
    'GET /api/v1/facts',
    'GET /api/v1/rules',
    'GET /api/v1/docs/navigation',
    'GET /api/v1/docs/page',
    'GET /api/v1/docs/search',
    'GET /api/v1/docs/markdown',
  ];
  const described = Object.entries(document.paths).flatMap(([path, item]: [string, any]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
  assert.equal(described.sort(), [...expected].sort());
  const ids = new Set<string>();
  for (const item of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(item)) {
      assert.type(operation.operationId, 'string');
      assert.not.ok(ids.has(operation.operationId));
      ids.add(operation.operationId);
      assert.ok(operation.tags.length === 1 && operation.description.length > 20 && operation.responses['200']);
    }
  }
});

test('calculate documents every status of the contract, and 429 its retry-after header', () => {
  const calculate = document.paths['/api/v1/calculators/{calculatorId}/calculate'].post;
  assert.equal(Object.keys(calculate.responses).sort(), ['200', '400', '404', '405', '408', '413', '429', '503', '504']);
  assert.ok(calculate.responses['429'].headers['retry-after']);
  assert.equal(calculate.parameters.map((parameter: any) => parameter.name), ['calculatorId', 'help']);
  assert.is(calculate.requestBody.content['application/json'].schema.$ref, '#/components/schemas/CalculatorRunRequest');
  for (const route of ['/api/v1/jurisdictions', '/api/v1/calculators/{calculatorId}/graph']) {
    assert.ok(document.paths[route].get.responses['504']);
  }
  assert.ok(document.paths['/api/v1/docs/page'].get.responses['404']);
  assert.ok(document.paths['/api/v1/docs/search'].get.responses['503']);
});

test('every operation documents a 4xx, the 405 of its path with allow, and the 404 of an empty calculator id', () => {
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      const statuses = Object.keys(operation.responses);
      assert.ok(statuses.some((status) => status.startsWith('4') && status !== '405'), `${method} ${path} documents a 4xx of its own`);
      assert.is(operation.responses['405'].content['application/json'].schema.$ref, '#/components/schemas/MethodNotAllowed');
      assert.ok(operation.responses['405'].headers.allow);
      if (path.includes('{calculatorId}')) assert.is(operation.responses['404'].content['application/json'].schema.$ref, '#/components/schemas/RouteNotFound');
    }
  }
});

test('the calculator id in the path is constrained by the pattern the service checks', () => {
  const parameter = document.paths['/api/v1/calculators/{calculatorId}'].get.parameters[0];
  assert.is(parameter.name, 'calculatorId');
  const pattern = new RegExp(parameter.schema.pattern);
  for (const id of ['au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual']) assert.ok(pattern.test(id), id);
  for (const id of ['', 'AU.PAY', 'a/b', 'x'.repeat(65)]) assert.not.ok(pattern.test(id), id);
});

test('each calculator names its facts shape and its report; the body examples are the packs\' examples', () => {
  const schemas = document.components.schemas;
  const pairs = {
    'au.pay.take-home': ['PayFacts', 'TakeHomePayReport'],
    'au.pay.withholdings': ['PayFacts', 'PayWithholdingsLedger'],
    'au.income-tax.annual': ['AnnualTaxFacts', 'AnnualTaxReport'],
  };
  assert.equal(schemas.CalculatorRunRequest.anyOf.map((ref: any) => ref.$ref), Object.keys(pairs).map((id) => `#/components/schemas/${id}.RunRequest`));
  assert.equal(schemas.CalculatorRunResponse.oneOf.map((ref: any) => ref.$ref), Object.keys(pairs).map((id) => `#/components/schemas/${id}.RunResponse`));
  for (const [id, [facts, report]] of Object.entries(pairs)) {
    assert.is(schemas[`${id}.RunRequest`].properties.facts.$ref, `#/components/schemas/${facts}`);
    const [base, narrowed] = schemas[`${id}.RunResponse`].allOf;
    assert.is(base.$ref, '#/components/schemas/AnyCalculatorRunResponse');
    assert.is(narrowed.properties.report.$ref, `#/components/schemas/${report}`);
  }
  const examples = document.paths['/api/v1/calculators/{calculatorId}/calculate'].post.requestBody.content['application/json'].examples;
  assert.equal(Object.keys(examples), Object.keys(pairs));
  assert.equal(Object.keys(examples['au.income-tax.annual'].value.facts), ['taxableIncome']);
});

test('the report and error unions are discriminated by _tag', () => {
  const schemas = document.components.schemas;
  assert.is(schemas.AnyCalculatorRunResponse.properties.report.$ref, '#/components/schemas/CalculatorReport');
  assert.is(schemas.CalculatorReport.discriminator.propertyName, '_tag');
  assert.equal(Object.keys(schemas.CalculatorReport.discriminator.mapping), ['TakeHomePayReport', 'PayWithholdingsLedger', 'AnnualTaxReport']);
  for (const [name, schema] of Object.entries<any>(schemas)) {
    if (!schema.oneOf || !schema.discriminator) continue;
    for (const option of schema.oneOf) {
      const tag = option.$ref.split('/').at(-1);
      assert.equal(schemas[tag].properties._tag, { const: tag }, `${name}: ${tag}`);
      assert.is(schema.discriminator.mapping[tag], option.$ref);
    }
  }
  assert.is(schemas.BadRequestError.properties.error.discriminator.propertyName, '_tag');
});

test('info names a contact and a licence; no operation asks for credentials', () => {
  assert.type(document.info.contact.name, 'string');
  assert.ok(document.info.license.name && document.info.license.identifier);
  assert.equal(document.security, []);
});

test('the operations table and the document agree on every query parameter', () => {
  for (const operation of OPERATIONS) {
    const described = document.paths[operation.path][operation.method];
    const names = described.parameters.filter((parameter: any) => parameter.in === 'query').map((parameter: any) => parameter.name);
    assert.equal(names, operation.query.map((query) => query.name), operation.operationId);
  }
});

test('report schemas derived from the packs name the rule-pack versions of the contract', () => {
  const schemas = document.components.schemas;
  assert.equal(schemas.TakeHomePayReport.properties.rulePackVersion, { const: 'rules-au-pay/1.0.0' });
  assert.equal(schemas.AnnualTaxReport.properties.rulePackVersion, { const: 'rules-au-income-tax/1.0.0' });
  assert.equal(schemas.TakeHomePayReport.required.sort(), ['_tag', 'grossPay', 'netPay', 'period', 'rulePackVersion', 'taxablePay', 'trace', 'withholdings', 'withholdingsTotal']);
  assert.equal(schemas.AnnualTaxLedger.required.sort(), ['_tag', 'components', 'rawLiability', 'trace']);
});

test.run();
