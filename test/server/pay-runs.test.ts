import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readConfig, type ServiceConfig } from '../../server/process/config.ts';
import { createRateLimiter } from '../../server/limits/rate-limit.ts';
import type { CalculationRunner } from '../../server/calculate/runner.ts';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import { payFacts, money } from '../helpers/packs.ts';
import { responseValidators } from './openapi-check.ts';
import { servedPacks, startTestServer, type TestServer } from './helpers.ts';

// POST /api/v1/pay-runs (API_EXTENSIONS=pay-runs): each item answered exactly as calculate answers
// it alone, the rate limit counting items, one budget and one shedding decision for the run.

const PAY_RUNS: Partial<ServiceConfig> = { apiExtensions: new Set(['pay-runs']) };
const PATH = '/api/v1/pay-runs';

type Item = { id: string; calculatorId: string; facts: unknown; taxYear?: string | null; jurisdiction?: string | null; help?: string };

async function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

/** What calculate answers for an item sent alone. */
async function single(server: TestServer, item: Item): Promise<{ status: number; text: string }> {
  const { id: _id, calculatorId, help, ...request } = item;
  const query = help === undefined ? '' : `?help=${help}`;
  return postJson(`${server.url}/api/v1/calculators/${encodeURIComponent(calculatorId)}/calculate${query}`, request);
}

/** A run of mixed calculators, years, periods and help modes, with a few items calculate refuses. */
function mixedItems(count: number, taxYears: readonly string[]): Item[] {
  const periods = ['weekly', 'fortnightly', 'monthly'];
  return Array.from({ length: count }, (_, index) => {
    const id = `employee-${index}`;
    const taxYear = index % 4 === 0 ? undefined : taxYears[Math.floor(index / 3) % taxYears.length];
    const cents = 10_000 + ((index * 7_919) % 900_000);
    switch (index % 50) {
      case 7:
        return { id, calculatorId: 'au.pay.take-home', facts: { grossPay: 'lots' }, help: 'examples' };
      case 19:
        return { id, calculatorId: 'au.pay.nowhere', facts: payFacts(cents, 'weekly', true) };
      case 23:
        return { id, calculatorId: 'au.pay.take-home', facts: payFacts(cents, 'weekly', true), taxYear: '1999-00' };
      default:
        break;
    }
    if (index % 3 === 2) return { id, calculatorId: 'au.income-tax.annual', facts: { taxableIncome: money(cents * 52) }, ...(taxYear ? { taxYear } : {}) };
    const calculatorId = index % 3 === 0 ? 'au.pay.take-home' : 'au.pay.withholdings';
    return { id, calculatorId, facts: payFacts(cents, periods[index % 3]!, index % 5 !== 0), ...(taxYear ? { taxYear } : {}) };
  });
}

test('pay runs are not served unless API_EXTENSIONS names them', async () => {
  const plain = await startTestServer();
  try {
    const { status, text } = await postJson(`${plain.url}${PATH}`, { items: mixedItems(2, ['2025-26']) });
    assert.is(status, 404);
    assert.match(text, 'RouteNotFound');
    const document = await (await fetch(`${plain.url}/api/docs/openapi.json`)).json();
    assert.not.ok(document.paths[PATH]);
    assert.not.ok(Object.keys(document.components.schemas).some((name) => name.includes('PayRun')));
  } finally {
    await plain.close();
  }
  assert.equal([...readConfig({ API_EXTENSIONS: 'pay-runs' }).apiExtensions], ['pay-runs']);
  assert.equal([...readConfig({ API_EXTENSIONS: 'all' }).apiExtensions].sort(), ['mcp', 'pay-runs']);
  assert.equal([...readConfig({ API_EXTENSIONS: ' mcp , pay-runs ' }).apiExtensions].sort(), ['mcp', 'pay-runs']);
  assert.throws(() => readConfig({ API_EXTENSIONS: 'pay-runs,payroll-magic' }), (error: Error) => /API_EXTENSIONS must be all or a comma-separated list of pay-runs, mcp/.test(error.message) && !error.message.includes('payroll-magic'));
});

test('a 1,000-item run of mixed calculators answers every item exactly as calculate answers it alone', async () => {
  const { catalog, defaultTaxYear, taxYears } = servedPacks({ taxYears: 'all', defaultTaxYear: '2025-26' });
  const server = await startTestServer({ config: PAY_RUNS, deps: { catalog, defaultTaxYear } });
  try {
    const items = mixedItems(1000, taxYears);
    const run = await postJson(`${server.url}${PATH}`, { items });
    assert.is(run.status, 200);
    const results = JSON.parse(run.text).items as { id: string; status: number; body: unknown }[];
    assert.is(results.length, items.length);
    const statuses = new Set<number>();
    const alones: { status: number; text: string }[] = [];
    for (let start = 0; start < items.length; start += 25) alones.push(...(await Promise.all(items.slice(start, start + 25).map((item) => single(server, item)))));
    for (const [index, item] of items.entries()) {
      const alone = alones[index]!;
      assert.is(results[index]!.id, item.id);
      assert.is(results[index]!.status, alone.status, item.id);
      assert.equal(results[index]!.body, JSON.parse(alone.text), item.id);
      statuses.add(alone.status);
    }
    // The run really was mixed: answers and refusals, every calculator, every year.
    assert.equal([...statuses].sort(), [200, 400]);
    assert.ok(new Set(results.filter((result) => result.status === 200).map((result: any) => `${result.body.calculator.calculatorId} ${result.body.calculator.context.taxYear}`)).size >= 9);
  } finally {
    await server.close();
  }
});

test('one bad item is answered with its 400 and the other 999 are calculated', async () => {
  const server = await startTestServer({ config: PAY_RUNS });
  try {
    const items: unknown[] = Array.from({ length: 1000 }, (_, index) => ({ id: `p${index}`, calculatorId: 'au.pay.take-home', facts: payFacts(50_000 + index * 100, 'fortnightly', true) }));
    const bad = { id: 'p500', calculatorId: 'au.pay.take-home', facts: { ...payFacts(50_000, 'fortnightly', true), bonus: true } };
    items[500] = bad;
    const run = await postJson(`${server.url}${PATH}`, { items });
    assert.is(run.status, 200);
    const results = JSON.parse(run.text).items as { id: string; status: number; body: any }[];
    assert.is(results.filter((result) => result.status === 200).length, 999);
    const alone = await single(server, bad as Item);
    assert.is(alone.status, 400);
    assert.equal(results[500], { id: 'p500', status: 400, body: JSON.parse(alone.text) });
    assert.not.match(JSON.stringify(results[500]), 'bonus');
    assert.equal(results.map((result) => result.id), items.map((item: any) => item.id));
  } finally {
    await server.close();
  }
});

test('items without a usable id or calculator are answered on their own, never failing the run', async () => {
  const server = await startTestServer({ config: PAY_RUNS });
  try {
    const good = { id: 'ok', calculatorId: 'au.pay.take-home', facts: payFacts(100_000, 'weekly', true) };
    const run = await postJson(`${server.url}${PATH}`, { items: [good, 'not an item', { id: 42, calculatorId: 'au.pay.take-home', facts: {} }, { id: 'no-calculator', facts: {} }, { id: 'x'.repeat(201), calculatorId: 'au.pay.take-home', facts: {} }] });
    assert.is(run.status, 200);
    const results = JSON.parse(run.text).items as { id: string | null; status: number; body: any }[];
    assert.equal(results.map((result) => [result.id, result.status]), [['ok', 200], [null, 400], [null, 400], ['no-calculator', 400], [null, 400]]);
    assert.equal(results[2]!.body.error.issues.map((issue: any) => issue.path), [['id']]);
    assert.equal(results[3]!.body.error.issues.map((issue: any) => issue.path), [['calculatorId']]);
    assert.not.match(run.text, 'not an item');
    assert.not.match(run.text, 'xxxxxxxx');
  } finally {
    await server.close();
  }
});

test('the body of a run is checked before any item: shape, length, size, content type and query', async () => {
  const server = await startTestServer({ config: { ...PAY_RUNS, payRunMaxItems: 3, payRunBodyLimitBytes: 4096 } });
  try {
    const item = { id: 'a', calculatorId: 'au.pay.take-home', facts: payFacts(100_000, 'weekly', true) };
    const cases: [unknown, RegExp][] = [
      [[item], /expected a JSON object with items/],
      [{}, /items/],
      [{ items: [] }, /a list of 1 to 3 items/],
      [{ items: [item, item, item, item] }, /a list of 1 to 3 items/],
      [{ items: [item], extra: 'secret-value' }, /allowed fields are items/],
    ];
    for (const [body, message] of cases) {
      const { status, text } = await postJson(`${server.url}${PATH}`, body);
      assert.is(status, 400, text);
      assert.match(text, 'CalculatorInputDecodeError');
      assert.match(text, message);
      assert.not.match(text, 'secret-value');
    }
    const notJson = await fetch(`${server.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"items":[]}' });
    assert.is(notJson.status, 400);
    assert.match(await notJson.text(), 'content-type: application/json');
    const tooLarge = await postJson(`${server.url}${PATH}`, { items: [{ ...item, id: 'y'.repeat(5000) }] });
    assert.is(tooLarge.status, 413);
    assert.match(tooLarge.text, 'CalculatorRequestBodyTooLarge');
    const query = await fetch(`${server.url}${PATH}?dryRun=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [item] }) });
    assert.is(query.status, 400);
    assert.match(await query.text(), /Unknown query parameter/);
  } finally {
    await server.close();
  }
});

test('the rate limit admits exactly its number of items across single calls and pay runs together', async () => {
  const max = 50;
  const server = await startTestServer({ config: { ...PAY_RUNS, rateLimitMax: max }, deps: { rateLimiter: createRateLimiter({ max, windowSeconds: 60 }) } });
  try {
    const item = (id: string) => ({ id, calculatorId: 'au.pay.withholdings', facts: payFacts(120_000, 'monthly', false) });
    let admitted = 0;
    let limited = 0;
    const count = (status: number) => (status === 200 ? admitted++ : status === 429 ? limited++ : assert.unreachable(`status ${status}`));
    // Singles and runs at once, from one client.
    const singles = Array.from({ length: 12 }, (_, index) => single(server, item(`s${index}`)));
    const runs = [0, 1, 2].map((run) => postJson(`${server.url}${PATH}`, { items: Array.from({ length: 20 }, (_, index) => item(`r${run}-${index}`)) }));
    for (const answer of await Promise.all(singles)) count(answer.status);
    for (const answer of await Promise.all(runs)) {
      assert.is(answer.status, 200);
      const statuses = (JSON.parse(answer.text).items as { status: number }[]).map((result) => result.status);
      // Within a run, the first items are the ones admitted.
      assert.equal(statuses, [...statuses].sort((a, b) => a - b));
      for (const status of statuses) count(status);
    }
    assert.is(admitted, max);
    assert.is(limited, 12 + 60 - max);
    // Items refused before admission (unknown calculator) do not count against the limit.
    const after = await postJson(`${server.url}${PATH}`, { items: [{ id: 'gone', calculatorId: 'au.pay.nowhere', facts: {} }] });
    assert.is(JSON.parse(after.text).items[0].status, 400);
    const limitedAlone = await single(server, item('late'));
    assert.is(limitedAlone.status, 429);
    const limitedInRun = JSON.parse((await postJson(`${server.url}${PATH}`, { items: [item('late-run')] })).text).items[0];
    assert.equal(limitedInRun, { id: 'late-run', status: 429, body: JSON.parse(limitedAlone.text) });
  } finally {
    await server.close();
  }
});

test('the run has one budget: items it cannot finish in time are answered 504, in order after those finished', async () => {
  const inline = createInlineRunner(4);
  // Each calculation takes 20 ms, as a slow worker would.
  const slow: CalculationRunner = {
    ...inline,
    tryAcquire() {
      const place = inline.tryAcquire();
      return place && { run: async (request, budgetMs) => (await new Promise((resolve) => setTimeout(resolve, 20)), place.run(request, budgetMs)), release: place.release };
    },
  };
  const server = await startTestServer({ config: { ...PAY_RUNS, calcTimeoutMs: 300 }, deps: { runner: slow } });
  try {
    const items = Array.from({ length: 100 }, (_, index) => ({ id: `t${index}`, calculatorId: 'au.pay.take-home', facts: payFacts(90_000, 'weekly', true) }));
    const run = await postJson(`${server.url}${PATH}`, { items });
    assert.is(run.status, 200);
    const results = JSON.parse(run.text).items as { status: number; body: any }[];
    const statuses = results.map((result) => result.status);
    assert.is(statuses[0], 200);
    assert.is(statuses.at(-1), 504);
    assert.equal(statuses, [...statuses].sort((a, b) => a - b));
    assert.is(results.at(-1)!.body.error._tag, 'CalculatorOperationTimedOut');
    assert.is(slow.inUse(), 0);
  } finally {
    await server.close();
  }
});

test('a saturated service, or a rate-limit store that cannot answer, refuses the whole run with 503 before running any item', async () => {
  const item = { id: 'a', calculatorId: 'au.pay.take-home', facts: payFacts(100_000, 'weekly', true) };
  const saturated = await startTestServer({ config: PAY_RUNS, deps: { load: { saturated: () => true, close: () => undefined } } });
  const storeDown = await startTestServer({ config: PAY_RUNS, deps: { rateLimiter: { admit: async () => 'unavailable' } } });
  try {
    const busy = await postJson(`${saturated.url}${PATH}`, { items: [item] });
    assert.is(busy.status, 503);
    assert.match(busy.text, 'CalculatorCapacityExceeded');
    const unknown = await postJson(`${storeDown.url}${PATH}`, { items: [item] });
    assert.is(unknown.status, 503);
    assert.match(unknown.text, 'CalculatorAdmissionUnavailable');
  } finally {
    await saturated.close();
    await storeDown.close();
  }
});

test('a long run leaves the event loop to other requests between slices of work', async () => {
  const server = await startTestServer({ config: PAY_RUNS });
  try {
    const items = Array.from({ length: 1000 }, (_, index) => ({ id: `h${index}`, calculatorId: 'au.pay.take-home', facts: payFacts(80_000 + index, 'weekly', true) }));
    const order: string[] = [];
    const run = postJson(`${server.url}${PATH}`, { items }).then(() => order.push('run'));
    // Sent once the run is under way: health is answered between its slices, not after it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const health = fetch(`${server.url}/api/health`).then(() => order.push('health'));
    await Promise.all([run, health]);
    assert.equal(order, ['health', 'run']);
  } finally {
    await server.close();
  }
});

test('with pay runs served, the API description describes them, and answers match it', async () => {
  const server = await startTestServer({ config: PAY_RUNS });
  try {
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    const result = await new Validator().validate(structuredClone(document));
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    const operation = document.paths[PATH].post;
    assert.is(operation.operationId, 'runPayRun');
    assert.equal(Object.keys(operation.responses).sort(), ['200', '400', '405', '408', '413', '503']);
    assert.is(document.components.schemas.PayRunRequest.properties.items.maxItems, 1000);
    const validators = responseValidators(document);
    const run = await postJson(`${server.url}${PATH}`, {
      items: [
        { id: 'ok', calculatorId: 'au.pay.take-home', facts: payFacts(100_000, 'weekly', true) },
        { id: 'annual', calculatorId: 'au.income-tax.annual', facts: { taxableIncome: money(9_000_000) } },
        { id: 'bad', calculatorId: 'au.pay.take-home', facts: {} },
      ],
    });
    const validate = validators(PATH, 'post', 200);
    assert.ok(validate(JSON.parse(run.text)), JSON.stringify(validate.errors));
    const empty = await postJson(`${server.url}${PATH}`, { items: [] });
    const validate400 = validators(PATH, 'post', 400);
    assert.ok(validate400(JSON.parse(empty.text)), JSON.stringify(validate400.errors));
  } finally {
    await server.close();
  }
});

test.run();
