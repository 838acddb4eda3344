import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import type { MetadataSource } from '../../server/catalog/metadata.ts';
import { payFacts, money } from '../helpers/packs.ts';
import { responseValidators } from './openapi-check.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';

const ZERO_DIVISOR_PACK = fileURLToPath(new URL('../fixtures/server-packs/zero-divisor/', import.meta.url));
const CALCULATE = '/api/v1/calculators/{calculatorId}/calculate';
let server: TestServer;
let check: ReturnType<typeof responseValidators>;

test.before(async () => {
  // The shipped packs plus one that passes every check but divides by zero, for CalculationError.
  const { catalog, defaultTaxYear } = servedPacks({ extraPaths: [ZERO_DIVISOR_PACK] });
  server = await startTestServer({ deps: { catalog, defaultTaxYear, runner: createInlineRunner(4) } });
  check = responseValidators(await (await fetch(`${server.url}/api/docs/openapi.json`)).json());
});
test.after(() => server.close());

async function expectError(response: Response, status: number, route: string, method: string, tag: string): Promise<any> {
  assert.is(response.status, status);
  const body: any = await response.json();
  const validate = check(route, method, status);
  assert.ok(validate(body), `${tag}: ${JSON.stringify(validate.errors)}`);
  const error = body.error ?? body;
  assert.is(error._tag, tag);
  return error;
}

test('an unknown calculator is UnsupportedCalculatorError, echoing only plausible identifiers', async () => {
  const plausible = await expectError(await calculate(server.url, 'au.pay.unknown', { facts: {} }), 400, CALCULATE, 'post', 'UnsupportedCalculatorError');
  assert.is(plausible.requestedCalculator, 'au.pay.unknown');
  const hostile = await expectError(await calculate(server.url, 'Robert%3Cscript%3E', { facts: {} }), 400, CALCULATE, 'post', 'UnsupportedCalculatorError');
  assert.is(hostile.requestedCalculator, '(unrecognised identifier)');
  for (const suffix of ['', '/schema', '/graph']) {
    const route = `/api/v1/calculators/{calculatorId}${suffix}`;
    await expectError(await fetch(`${server.url}/api/v1/calculators/xx${suffix}`), 400, route, 'get', 'UnsupportedCalculatorError');
  }
});

test('a well-formed context the calculator does not serve is UnsupportedCalculatorContextError', async () => {
  const error = await expectError(await calculate(server.url, 'au.pay.take-home', { facts: payFacts(100, 'weekly', true), taxYear: '2024-25' }), 400, CALCULATE, 'post', 'UnsupportedCalculatorContextError');
  assert.equal(error.context, { taxYear: '2024-25' });
  assert.is(error.requestedCalculator, 'au.pay.take-home');
  const detail = await expectError(await fetch(`${server.url}/api/v1/calculators/au.pay.take-home?jurisdiction=NZ`), 400, '/api/v1/calculators/{calculatorId}', 'get', 'UnsupportedCalculatorContextError');
  assert.equal(detail.context, { jurisdiction: 'NZ' });
});

test('malformed query values are decode errors naming the parameter', async () => {
  const error = await expectError(await fetch(`${server.url}/api/v1/calculators/au.pay.take-home/schema?help=loud&jurisdiction=au`), 400, '/api/v1/calculators/{calculatorId}/schema', 'get', 'CalculatorInputDecodeError');
  assert.equal(error.issues.map((issue: any) => issue.path), [['query', 'help'], ['query', 'jurisdiction']]);
  assert.is(error.calculatorId, 'au.pay.take-home');
  assert.ok(!JSON.stringify(error).includes('loud'));
  const graph = await expectError(await fetch(`${server.url}/api/v1/calculators/au.pay.take-home/graph?help=full`), 400, '/api/v1/calculators/{calculatorId}/graph', 'get', 'CalculatorInputDecodeError');
  assert.equal(graph.issues[0].path, ['query']);
  for (const route of ['/api/v1/tax-years', '/api/v1/calculators', '/api/v1/facts', '/api/v1/rules']) {
    await expectError(await fetch(`${server.url}${route}?taxYear=next`), 400, route, 'get', 'CalculatorInputDecodeError');
  }
});

test('undecodable bodies list every issue with its path and never the value', async () => {
  const cases: [unknown, string[][]][] = [
    ['{not json', [[]]],
    [[1, 2], [[]]],
    [{}, [['facts']]],
    [{ facts: payFacts(100, 'weekly', true), extra: 'SENTINEL-1' }, [[]]],
    [{ facts: { ...payFacts(-5, 'daily', true), bonus: 'SENTINEL-2' } }, [['facts'], ['facts', 'grossPay', 'amount', 'cents'], ['facts', 'grossPay', 'period']]],
    [{ facts: payFacts(1.5, 'weekly', 'yes' as never) }, [['facts', 'grossPay', 'amount', 'cents'], ['facts', 'taxFreeThresholdClaimed']]],
    [{ facts: payFacts(2 ** 60, 'weekly', true) }, [['facts', 'grossPay', 'amount', 'cents']]],
    [{ facts: { grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 100, currency: 'NZD' }, period: 'weekly' }, taxFreeThresholdClaimed: true } }, [['facts', 'grossPay', 'amount', 'currency']]],
    [{ facts: payFacts(100, 'weekly', true), jurisdiction: 'australia' }, [['jurisdiction']]],
  ];
  for (const [body, paths] of cases) {
    const error = await expectError(await calculate(server.url, 'au.pay.take-home', body), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
    assert.equal(error.issues.map((issue: any) => issue.path).sort(), [...paths].sort(), JSON.stringify(body));
    assert.ok(error.issues.every((issue: any) => issue._tag === 'CalculatorInputIssue' && /expected|required|allowed/.test(issue.message)));
    assert.not.match(JSON.stringify(error), /SENTINEL|daily|NZD|australia|1\.5/);
    assert.is(error.calculatorId, 'au.pay.take-home');
  }
  const wrongType = await fetch(`${server.url}/api/v1/calculators/au.pay.take-home/calculate`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
  await expectError(wrongType, 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
});

test('help modes shape the help list of a decode error', async () => {
  const send = (help: string) => calculate(server.url, 'au.pay.take-home', { facts: {} }, `?help=${help}`);
  const none = await expectError(await send('none'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.is(none.help, undefined);
  const errors = await expectError(await send('errors'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.equal(errors.help.map((item: any) => item.factId), ['grossPay', 'taxFreeThresholdClaimed']);
  const schema = await expectError(await send('schema'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.match(schema.help[0].question.helpText, /Expected JSON: a GrossPay object/);
  const examples = await expectError(await send('examples'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.match(examples.help[0].question.helpText, /Example: \{"_tag":"GrossPay"/);
  const sources = await expectError(await send('sources'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.match(sources.help[1].question.helpText, /NAT 1004/);
  const full = await expectError(await send('full'), 400, CALCULATE, 'post', 'CalculatorInputDecodeError');
  assert.match(full.help[0].question.helpText, /Expected JSON.*Example.*Sources/);
});

test('a rule that fails at run time is a CalculationError with a safe cause', async () => {
  const error = await expectError(await calculate(server.url, 'test.zero-divisor', { facts: { amount: money(12345) } }), 400, CALCULATE, 'post', 'CalculationError');
  assert.equal(error.cause, { ruleId: 'scale', reason: 'division by zero in `/`' });
  assert.not.match(JSON.stringify(error), /12345/);
});

test('docs queries: invalid path or term is DocsQueryInvalid naming the rule, unknown pages are 404', async () => {
  const invalid: [string, string][] = [
    ['/api/v1/docs/page', ''],
    ['/api/v1/docs/page', '?path=no-slash'],
    ['/api/v1/docs/page', `?path=/${'a'.repeat(300)}`],
    ['/api/v1/docs/page', '?path=/A&path=/b'],
    ['/api/v1/docs/markdown', '?path=/Upper'],
    ['/api/v1/docs/search', ''],
    ['/api/v1/docs/search', '?term=%20padded'],
    ['/api/v1/docs/search', `?term=${'x'.repeat(101)}`],
  ];
  for (const [route, query] of invalid) {
    const error = await expectError(await fetch(`${server.url}${route}${query}`), 400, route, 'get', 'DocsQueryInvalid');
    assert.match(error.message, /`(path|term)`/);
    assert.not.match(error.message, /no-slash|Upper|padded|aaaa|xxxx/);
  }
  const missing = await expectError(await fetch(`${server.url}/api/v1/docs/page?path=/no/such/page`), 404, '/api/v1/docs/page', 'get', 'DocsPageUnavailable');
  assert.match(missing.message, /not found/);
  await expectError(await fetch(`${server.url}/api/v1/docs/markdown?path=/no/such/page`), 404, '/api/v1/docs/markdown', 'get', 'DocsPageUnavailable');
});

test('search without a docs index is DocsSearchUnavailable', async () => {
  const bare = await startTestServer();
  try {
    const response = await fetch(`${bare.url}/api/v1/docs/search?term=tax`);
    const error = await expectError(response, 503, '/api/v1/docs/search', 'get', 'DocsSearchUnavailable');
    assert.match(error.message, /temporarily unavailable/);
  } finally {
    await bare.close();
  }
});

test('unknown routes are 404 RouteNotFound; known routes with another method are 405 with allow', async () => {
  const notFound = await fetch(`${server.url}/api/v2/anything`);
  assert.is(notFound.status, 404);
  assert.is((await notFound.json())._tag, 'RouteNotFound');
  const wrongMethod = await fetch(`${server.url}/api/v1/calculators`, { method: 'DELETE' });
  assert.is(wrongMethod.status, 405);
  assert.is(wrongMethod.headers.get('allow'), 'GET, HEAD');
  assert.is((await wrongMethod.json())._tag, 'MethodNotAllowed');
  const getCalculate = await fetch(`${server.url}/api/v1/calculators/au.pay.take-home/calculate`);
  assert.is(getCalculate.status, 405);
  assert.is(getCalculate.headers.get('allow'), 'POST');
});

test('every metadata operation answers 504 when its budget runs out', async () => {
  const never = () => new Promise<never>(() => undefined);
  const stuck: MetadataSource = { jurisdictions: never, taxYears: never, calculators: never, calculator: never, schema: never, graph: never, facts: never, rules: never };
  const slow = await startTestServer({ config: { calcTimeoutMs: 30 }, deps: { metadata: stuck } });
  try {
    const slowCheck = responseValidators(await (await fetch(`${slow.url}/api/docs/openapi.json`)).json());
    for (const [route, url] of [
      ['/api/v1/jurisdictions', '/api/v1/jurisdictions'],
      ['/api/v1/tax-years', '/api/v1/tax-years'],
      ['/api/v1/calculators', '/api/v1/calculators'],
      ['/api/v1/calculators/{calculatorId}', '/api/v1/calculators/au.pay.take-home'],
      ['/api/v1/calculators/{calculatorId}/schema', '/api/v1/calculators/au.pay.take-home/schema'],
      ['/api/v1/calculators/{calculatorId}/graph', '/api/v1/calculators/au.pay.take-home/graph'],
      ['/api/v1/facts', '/api/v1/facts'],
      ['/api/v1/rules', '/api/v1/rules'],
    ]) {
      const response = await fetch(`${slow.url}${url}`);
      assert.is(response.status, 504, url);
      const body: any = await response.json();
      assert.ok(slowCheck(route!, 'get', 504)(body));
      assert.equal(body.error, {
        _tag: 'CalculatorOperationTimedOut',
        code: 'calculation-timeout',
        message: 'The calculation could not finish within five seconds. Try again when you are ready.',
        retry: 'try-again-manually',
      });
    }
  } finally {
    await slow.close();
  }
});

test('a rate-limit store that cannot answer gives 503 CalculatorAdmissionUnavailable', async () => {
  const broken = await startTestServer({ deps: { rateLimiter: { admit: async () => 'unavailable' } } });
  try {
    const response = await calculate(broken.url, 'au.pay.take-home', { facts: payFacts(100, 'weekly', true) });
    const error = await expectError(response, 503, CALCULATE, 'post', 'CalculatorAdmissionUnavailable');
    assert.is(error.code, 'calculation-admission-unavailable');
  } finally {
    await broken.close();
  }
});

test.run();
