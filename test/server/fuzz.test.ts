import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { money, payFacts } from '../helpers/packs.ts';
import { hostileBody, hostileQueryValue, SENTINEL } from '../fuzz/hostile.ts';
import { responseValidators } from './openapi-check.ts';
import { calculate, startTestServer, type TestServer } from './helpers.ts';

// Property-based hostile requests, at a size the suite can afford; `npm run fuzz` runs many more.
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20251122);
const BUDGET_MS = 5000;
let server: TestServer;
let document: any;
let check: ReturnType<typeof responseValidators>;

test.before(async () => {
  server = await startTestServer();
  document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
  check = responseValidators(document);
});
test.after(() => server.close());

/**
 * The properties every answer must have, whatever was sent: its status is one the description
 * documents on the operation, a JSON body matches the schema documented for that status, nothing
 * sent is echoed, and it comes within the budget.
 */
async function checkAnswer(response: Response, operation: { path: string; method: string }, started: number): Promise<void> {
  const text = await response.text();
  const responses = document.paths[operation.path][operation.method].responses;
  assert.ok(responses[String(response.status)], `${operation.method.toUpperCase()} ${operation.path}: status ${response.status} is not documented: ${text.slice(0, 300)}`);
  assert.not.ok(text.includes(SENTINEL), `echoed input: ${text.slice(0, 300)}`);
  assert.ok(performance.now() - started < BUDGET_MS, 'answered within the budget');
  if (response.headers.get('content-type')?.startsWith('application/json') && responses[String(response.status)].content['application/json'].schema.$ref) {
    const validate = check(operation.path, operation.method, response.status);
    assert.ok(validate(JSON.parse(text)), `${operation.method.toUpperCase()} ${operation.path} ${response.status}: ${JSON.stringify(validate.errors)}`);
  }
  if (response.status !== 200) {
    const body = JSON.parse(text);
    assert.type((body.error ?? body)._tag, 'string');
  }
}

const CALCULATE = { path: '/api/v1/calculators/{calculatorId}/calculate', method: 'post' };

async function knownGood(): Promise<void> {
  const response = await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165400, 'weekly', true) });
  assert.equal(((await response.json()) as any).report.netPay, money(130100));
}

test('calculate: hostile bodies get a tagged 400 and never an echo', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual'), hostileBody, async (calculatorId, body) => {
      const started = performance.now();
      await checkAnswer(await calculate(server.url, calculatorId, body), CALCULATE, started);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  await knownGood();
});

test('calculate: hostile calculator ids and query values', async () => {
  await fc.assert(
    fc.asyncProperty(hostileQueryValue, hostileQueryValue, async (id, help) => {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/v1/calculators/${encodeURIComponent(id)}/calculate?help=${encodeURIComponent(help)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ facts: payFacts(100, 'weekly', true) }),
      });
      await checkAnswer(response, CALCULATE, started);
    }),
    { numRuns: RUNS, seed: SEED + 1 },
  );
});

test('metadata and docs routes: hostile query values', async () => {
  const routes = [
    ['/api/v1/calculators', 'taxYear'],
    ['/api/v1/tax-years', 'jurisdiction'],
    ['/api/v1/facts', 'calculator'],
    ['/api/v1/rules', 'calculator'],
    ['/api/v1/calculators/au.pay.take-home', 'help'],
    ['/api/v1/calculators/au.pay.take-home/schema', 'taxYear'],
    ['/api/v1/calculators/au.pay.take-home/graph', 'jurisdiction'],
    ['/api/v1/docs/page', 'path'],
    ['/api/v1/docs/markdown', 'path'],
    ['/api/v1/docs/search', 'term'],
  ] as const;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...routes), hostileQueryValue, fc.boolean(), async ([route, name], value, twice) => {
      const started = performance.now();
      const query = `${name}=${encodeURIComponent(value)}${twice ? `&${name}=${encodeURIComponent(value)}` : ''}`;
      const response = await fetch(`${server.url}${route}?${query}`);
      const template = route.replace('au.pay.take-home', '{calculatorId}');
      await checkAnswer(response, { path: template, method: 'get' }, started);
    }),
    { numRuns: RUNS, seed: SEED + 2 },
  );
  await knownGood();
});

/** Every operation of the description, as a fuzzer reading it would call them. */
function describedOperations(): { path: string; method: string; query: string[] }[] {
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item).map(([method, operation]) => ({
      path,
      method,
      query: (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'query').map((parameter: any) => parameter.name as string),
    })),
  );
}

test('every operation of the description: any status it answers is documented there', async () => {
  const operations = describedOperations();
  const calculatorId = fc.oneof(fc.constantFrom('au.pay.take-home', 'au.income-tax.annual', '', 'AU.PAY', 'no.such.calculator'), hostileQueryValue);
  // The operation's own parameters, and names it does not take.
  const queryName = (names: string[]) => fc.oneof(fc.constantFrom(...names, 'unexpectedName', '__proto__', SENTINEL), fc.string({ maxLength: 8 }));
  const request = fc.constantFrom(...operations).chain((operation) =>
    fc.record({
      operation: fc.constant(operation),
      id: calculatorId,
      query: fc.array(fc.tuple(queryName(operation.query), hostileQueryValue), { maxLength: 3 }),
      body: hostileBody,
    }),
  );
  await fc.assert(
    fc.asyncProperty(request, async ({ operation, id, query, body }) => {
      const url = `${server.url}${operation.path.replace('{calculatorId}', encodeURIComponent(id))}?${new URLSearchParams(query)}`;
      const init: RequestInit = operation.method === 'post' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body } : {};
      const started = performance.now();
      await checkAnswer(await fetch(url, init), operation, started);
    }),
    { numRuns: RUNS, seed: SEED + 3 },
  );
  await knownGood();
});

test('no request pollutes Object.prototype', () => {
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).x, undefined);
});

test.run();
