import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { money, payFacts } from '../helpers/packs.ts';
import { hostileBody, hostileQueryValue, SENTINEL } from '../fuzz/hostile.ts';
import { calculate, startTestServer, type TestServer } from './helpers.ts';

// Property-based hostile requests, at a size the suite can afford; `npm run fuzz` runs many more.
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20251122);
const BUDGET_MS = 5000;
let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});
test.after(() => server.close());

/** The properties every answer must have, whatever was sent. */
async function checkAnswer(response: Response, allowed: number[], started: number): Promise<void> {
  const text = await response.text();
  assert.ok(allowed.includes(response.status), `status ${response.status}: ${text.slice(0, 300)}`);
  assert.not.ok(text.includes(SENTINEL), `echoed input: ${text.slice(0, 300)}`);
  assert.ok(performance.now() - started < BUDGET_MS, 'answered within the budget');
  if (response.status !== 200) {
    const body = JSON.parse(text);
    assert.type((body.error ?? body)._tag, 'string');
  }
}

async function knownGood(): Promise<void> {
  const response = await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165400, 'weekly', true) });
  assert.equal(((await response.json()) as any).report.netPay, money(130100));
}

test('calculate: hostile bodies get a tagged 400 and never an echo', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual'), hostileBody, async (calculatorId, body) => {
      const started = performance.now();
      await checkAnswer(await calculate(server.url, calculatorId, body), [200, 400], started);
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
      await checkAnswer(response, [400, 404], started);
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
      // 200 for filters that match nothing; 404/503 from docs routes without a docs index.
      await checkAnswer(response, [200, 400, 404, 503], started);
    }),
    { numRuns: RUNS, seed: SEED + 2 },
  );
  await knownGood();
});

test('no request pollutes Object.prototype', () => {
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(({} as Record<string, unknown>).x, undefined);
});

test.run();
