import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { money } from '../helpers/packs.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';
import { responseValidators } from './openapi-check.ts';

// With every calculator served (CALCULATORS=all), the API description, its enumerations and the
// catalog cover the calculators served only on request; plain `npm start` keeps to the contract
// (openapi.test.ts and the committed openapi.json check that).
let server: TestServer;
let document: any;
const served = servedPacks({ taxYears: 'all', calculators: 'all' });

test.before(async () => {
  server = await startTestServer({ deps: { catalog: served.catalog, defaultTaxYear: served.defaultTaxYear } });
  document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
});
test.after(() => server.close());

test('the described API is valid OpenAPI 3.1 and names the payroll calculator, its facts and its report', async () => {
  const result = await new Validator().validate(structuredClone(document));
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  const schemas = document.components.schemas;
  assert.ok(schemas.CalculatorEntry.properties.calculatorId.enum.includes('au.payroll.withholding'));
  assert.is(schemas['au.payroll.withholding.RunRequest'].properties.facts.$ref, '#/components/schemas/PayrollWithholdingFacts');
  const facts = schemas.PayrollWithholdingFacts;
  assert.equal(facts.required, ['grossPay', 'paymentDate', 'residency', 'tfnProvided', 'taxFreeThresholdClaimed', 'medicareLevyExemption', 'studyLoan']);
  assert.is(facts.additionalProperties, false);
  assert.is(facts.properties.paymentDate.format, 'date');
  assert.equal(facts.properties.residency.enum, ['resident', 'foreign-resident']);
  assert.equal(facts.properties.medicareLevyExemption.enum, ['none', 'half', 'full']);
  assert.ok(schemas.CalculatorReport.discriminator.mapping.PayrollWithholdingReport);
  const examples = document.paths['/api/v1/calculators/{calculatorId}/calculate'].post.requestBody.content['application/json'].examples;
  assert.ok(examples['au.payroll.withholding'], 'a request example for the payroll calculator');
});

test('a payroll answer and its refusals match the description', async () => {
  const validate = responseValidators(document);
  const facts = {
    grossPay: { _tag: 'GrossPay', amount: money(128200), period: 'fortnightly' },
    paymentDate: '2025-10-15',
    residency: 'foreign-resident',
    tfnProvided: true,
    taxFreeThresholdClaimed: false,
    medicareLevyExemption: 'none',
    studyLoan: true,
  };
  const path = '/api/v1/calculators/{calculatorId}/calculate';
  for (const [body, status] of [
    [{ facts }, 200],
    [{ facts: { ...facts, paymentDate: '2025-02-30' } }, 400],
    [{ facts: { ...facts, paymentDate: '2031-01-01' } }, 400],
    [{ facts, taxYear: '2024-25' }, 400],
  ] as const) {
    const response = await calculate(server.url, 'au.payroll.withholding', body);
    assert.is(response.status, status);
    const check = validate(path, 'post', status);
    assert.ok(check(await response.json()), JSON.stringify(check.errors));
  }
});

test.run();
