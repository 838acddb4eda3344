import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite } from '../../docs-site/index.ts';
import { payFacts, money } from '../helpers/packs.ts';
import { responseValidators } from './openapi-check.ts';
import { calculate, startTestServer, type TestServer } from './helpers.ts';

const FIXTURE_DOCS = fileURLToPath(new URL('../fixtures/docs/site/', import.meta.url));
let server: TestServer;
let check: ReturnType<typeof responseValidators>;

test.before(async () => {
  const docs = buildDocsSite({ contentDir: `${FIXTURE_DOCS}content`, navigationFile: `${FIXTURE_DOCS}navigation.yaml` });
  server = await startTestServer({ deps: { docs } });
  const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  check = responseValidators(document);
});
test.after(() => server.close());

/** Fetches a route and checks its body against the document's schema for that route and status. */
async function getValid(route: string, url: string, expectedStatus = 200, method = 'get'): Promise<any> {
  const response = await fetch(`${server.url}${url}`);
  assert.is(response.status, expectedStatus, `${url} status`);
  const body: any = await response.json();
  const validate = check(route, method, expectedStatus);
  assert.ok(validate(body), `${url}: ${JSON.stringify(validate.errors)}`);
  return body;
}

test('health says the service is ok', async () => {
  const body = await getValid('/api/health', '/api/health');
  assert.equal(body, { service: 'tax-rules-api', status: 'ok' });
});

test('jurisdictions list AU', async () => {
  const body = await getValid('/api/v1/jurisdictions', '/api/v1/jurisdictions');
  assert.equal(body, { jurisdictions: [{ code: 'AU', title: 'Australia' }] });
});

test('tax years list AU 2025-26 and honour filters', async () => {
  assert.equal((await getValid('/api/v1/tax-years', '/api/v1/tax-years')).taxYears, [{ jurisdiction: 'AU', taxYear: '2025-26' }]);
  assert.equal((await getValid('/api/v1/tax-years', '/api/v1/tax-years?taxYear=2024-25')).taxYears, []);
  assert.equal((await getValid('/api/v1/tax-years', '/api/v1/tax-years?jurisdiction=AU&taxYear=2025-26')).taxYears.length, 1);
});

test('calculators are listed in catalog order with closed entries', async () => {
  const body = await getValid('/api/v1/calculators', '/api/v1/calculators');
  assert.equal(
    body.calculators.map((entry: any) => entry.calculatorId),
    ['au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual'],
  );
  const takeHome = body.calculators[0];
  assert.equal(Object.keys(takeHome).sort(), ['calculatorId', 'context', 'description', 'inputFactIds', 'outputFactIds', 'reportSchemaName', 'ruleIds', 'supportedHelpModes', 'title']);
  assert.equal(takeHome.inputFactIds, ['grossPay', 'taxFreeThresholdClaimed']);
  assert.is(takeHome.reportSchemaName, 'TakeHomePayReport');
  assert.equal(takeHome.context, { jurisdiction: 'AU', taxYear: '2025-26' });
  assert.equal((await getValid('/api/v1/calculators', '/api/v1/calculators?jurisdiction=NZ')).calculators, []);
});

test('one calculator entry, the same with any help mode', async () => {
  const plain = await getValid('/api/v1/calculators/{calculatorId}', '/api/v1/calculators/au.income-tax.annual');
  assert.is(plain.calculatorId, 'au.income-tax.annual');
  assert.equal(plain.inputFactIds, ['taxableIncome']);
  for (const help of ['none', 'errors', 'schema', 'examples', 'sources', 'full']) {
    assert.equal(await getValid('/api/v1/calculators/{calculatorId}', `/api/v1/calculators/au.income-tax.annual?help=${help}`), plain);
  }
});

test('calculator schema lists facts, rules and the report name', async () => {
  const body = await getValid('/api/v1/calculators/{calculatorId}/schema', '/api/v1/calculators/au.pay.take-home/schema');
  assert.equal(body.inputFacts.map((fact: any) => fact.id), ['grossPay', 'taxFreeThresholdClaimed']);
  assert.ok(body.inputFacts.every((fact: any) => fact.authority === 'input' && fact.question?._tag === 'FactQuestion'));
  assert.equal(body.outputFacts.map((fact: any) => fact.id), body.calculator.outputFactIds);
  assert.is(body.reportSchemaName, 'TakeHomePayReport');
  const payg = body.rules.find((rule: any) => rule.id === 'payg-withholding');
  assert.equal(payg.parameters.map((parameter: any) => parameter.effectivePeriod), [
    { from: '2024-07-01', toExclusive: '2026-07-01' },
    { from: '2024-07-01', toExclusive: '2026-07-01' },
  ]);
  assert.ok(payg.sources.some((source: any) => source.kind === 'ato-publication' && source.reference === 'NAT 1004'));
  const withSchemaHelp = await getValid('/api/v1/calculators/{calculatorId}/schema', '/api/v1/calculators/au.pay.take-home/schema?help=schema');
  assert.match(withSchemaHelp.inputFacts[0].question.helpText, /Expected JSON/);
});

test('calculator graph: one edge per required → provided pair, no issues', async () => {
  const body = await getValid('/api/v1/calculators/{calculatorId}/graph', '/api/v1/calculators/au.income-tax.annual/graph');
  assert.equal(body.validationIssues, []);
  assert.ok(body.edges.some((edge: any) => edge.from === 'taxableIncome' && edge.to === 'medicareLevy' && edge.ruleId === 'medicare-levy'));
  const ledgerEdges = body.edges.filter((edge: any) => edge.ruleId === 'annual-tax-ledger').map((edge: any) => edge.from);
  assert.equal(ledgerEdges, ['incomeTax', 'lowIncomeTaxOffset', 'medicareLevy']);
});

test('facts and rules: all by default, filtered by calculator, empty for an unknown one', async () => {
  const facts = await getValid('/api/v1/facts', '/api/v1/facts');
  const ids = facts.facts.map((fact: any) => fact.id);
  assert.is(new Set(ids).size, ids.length);
  assert.ok(ids.includes('grossPay') && ids.includes('taxableIncome'));
  const annualFacts = await getValid('/api/v1/facts', '/api/v1/facts?calculator=au.income-tax.annual');
  assert.equal(annualFacts.facts[0].id, 'taxableIncome');
  assert.ok(!annualFacts.facts.some((fact: any) => fact.id === 'grossPay'));
  assert.equal((await getValid('/api/v1/facts', '/api/v1/facts?calculator=au.unknown')).facts, []);
  const rules = await getValid('/api/v1/rules', '/api/v1/rules?calculator=au.pay.withholdings');
  assert.equal(rules.rules.map((rule: any) => rule.id), ['taxable-pay', 'payg-withholding', 'withholdings-ledger']);
});

test('calculate take-home pay returns the report, entry and diagnostics', async () => {
  const response = await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165400, 'weekly', true) });
  assert.is(response.status, 200);
  const body: any = await response.json();
  const validate = check('/api/v1/calculators/{calculatorId}/calculate', 'post', 200);
  assert.ok(validate(body), JSON.stringify(validate.errors));
  assert.is(body.calculator.calculatorId, 'au.pay.take-home');
  assert.equal(body.diagnostics, { _tag: 'CalculationDiagnostics', graphIssues: [] });
  assert.is(body.report._tag, 'TakeHomePayReport');
  assert.equal(body.report.netPay, money(130100));
});

test('calculate withholdings and annual tax, with an explicit context', async () => {
  const withheld: any = await (await calculate(server.url, 'au.pay.withholdings', { facts: payFacts(346200, 'fortnightly', true), jurisdiction: 'AU', taxYear: '2025-26' })).json();
  assert.is(withheld.report._tag, 'PayWithholdingsLedger');
  assert.equal(withheld.report.total, money(75600));
  const annual: any = await (await calculate(server.url, 'au.income-tax.annual', { facts: { taxableIncome: money(1500000) }, taxYear: null })).json();
  assert.ok(check('/api/v1/calculators/{calculatorId}/calculate', 'post', 200)(annual));
  assert.equal(annual.report.rawLiability, money(-70000));
  assert.equal(annual.report.liability, money(0));
  assert.equal(annual.report.ledger.components.map((component: any) => component.status), ['active', 'active', 'zeroed']);
});

test('docs navigation, page, markdown and search answer in their shapes', async () => {
  const navigation = await getValid('/api/v1/docs/navigation', '/api/v1/docs/navigation');
  assert.ok(navigation.primaryNavigation.length > 0);
  const path = navigation.primaryNavigation[0].pages[0].path;
  const page = await getValid('/api/v1/docs/page', `/api/v1/docs/page?path=${encodeURIComponent(path)}`);
  const markdown = await fetch(`${server.url}/api/v1/docs/markdown?path=${encodeURIComponent(path)}`);
  assert.is(markdown.status, 200);
  assert.is(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.is(await markdown.text(), page.markdown);
  const results = await getValid('/api/v1/docs/search', '/api/v1/docs/search?term=trace');
  assert.ok(results.length > 0 && results.length <= 20);
});

test('HEAD works wherever GET does', async () => {
  const response = await fetch(`${server.url}/api/v1/calculators`, { method: 'HEAD' });
  assert.is(response.status, 200);
  assert.is(await response.text(), '');
});

test('each request is logged once with its route template and never its values', async () => {
  const before = server.logs.length;
  await fetch(`${server.url}/api/v1/facts?calculator=au.pay.take-home`);
  const line = server.logs.at(-1)!;
  assert.is(server.logs.length, before + 1);
  assert.equal(Object.keys(line).sort(), ['durationMs', 'method', 'requestId', 'route', 'status']);
  assert.is(line.route, '/api/v1/facts');
  assert.not.match(JSON.stringify(line), /au\.pay/);
});

test('every answer tells browsers not to guess its type: a calculation, a list, a refused calculation, an unknown path', async () => {
  const answers = [
    await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165_400, 'weekly', true) }),
    await fetch(`${server.url}/api/v1/calculators`),
    await calculate(server.url, 'au.pay.take-home', { facts: {} }),
    await fetch(`${server.url}/api/v1/no-such-route`),
  ];
  assert.equal(
    answers.map((answer) => answer.status),
    [200, 200, 400, 404],
  );
  for (const answer of answers) assert.is(answer.headers.get('x-content-type-options'), 'nosniff', `${answer.url} ${answer.status}`);
});

test.run();
