import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTaxRulesClient, type CalculateResult, type CalculatorId, type FactsOf } from '@tax-rules-api/client';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import { servedPacks, startTestServer, type TestServer } from '../server/helpers.ts';

// The client against real listening services: every calculator, and every error it can meet. Two it
// cannot: a 408 (it sends the whole body at once) and a 405 (it uses only described methods).

interface PayJourney {
  grossCents: number;
  period: 'weekly' | 'fortnightly' | 'monthly';
  taxFreeThresholdClaimed: boolean;
  withheldCents: number;
  netCents: number;
}
interface AnnualJourney {
  taxableIncomeCents: number;
  liability: number;
  rawLiability: number;
}
// Expected figures: the shared conformance journeys (copied into the fixtures), never our own output.
const JOURNEYS = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/conformance/journeys.json', import.meta.url)), 'utf8')) as { pay: PayJourney[]; annual: AnnualJourney[] };
// A pack that passes every check but divides by zero: a failure only a calculation can show.
const ZERO_DIVISOR_PACK = fileURLToPath(new URL('../fixtures/server-packs/zero-divisor/', import.meta.url));

const money = (cents: number) => ({ _tag: 'Money', cents, currency: 'AUD' }) as const;
const payFacts = (journey: PayJourney): FactsOf<'au.pay.take-home'> => ({
  grossPay: { _tag: 'GrossPay', amount: money(journey.grossCents), period: journey.period },
  taxFreeThresholdClaimed: journey.taxFreeThresholdClaimed,
});
const nurse = JOURNEYS.pay[0]!;

async function withService(options: Parameters<typeof startTestServer>[0], run: (service: TestServer) => Promise<void>): Promise<void> {
  const service = await startTestServer(options);
  try {
    await run(service);
  } finally {
    await service.close();
  }
}

/** A plain HTTP server with its own answer, for what the tax service never does. */
async function withRawServer(handler: Parameters<typeof createServer>[1], run: (url: string) => Promise<void>): Promise<void> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function failure<Id extends CalculatorId>(result: CalculateResult<Id>) {
  if (result.ok) throw new Error('expected the calculation to fail');
  return result;
}

test('every calculator: reports of their own type, with the conformance figures', () =>
  withService({}, async (service) => {
    const client = createTaxRulesClient({ baseUrl: service.url });
    for (const journey of JOURNEYS.pay.slice(0, 4)) {
      const takeHome = await client.calculate('au.pay.take-home', payFacts(journey));
      assert.ok(takeHome.ok);
      assert.is(takeHome.report._tag, 'TakeHomePayReport');
      assert.is(takeHome.report.netPay.cents, journey.netCents);
      assert.is(takeHome.report.withholdingsTotal.cents, journey.withheldCents);
      assert.is(takeHome.response.calculator.calculatorId, 'au.pay.take-home');
      const withholdings = await client.calculate('au.pay.withholdings', payFacts(journey));
      assert.ok(withholdings.ok);
      assert.is(withholdings.report._tag, 'PayWithholdingsLedger');
      assert.is(withholdings.report.total.cents, journey.withheldCents);
    }
    for (const journey of JOURNEYS.annual.slice(0, 4)) {
      const annual = await client.calculate('au.income-tax.annual', { taxableIncome: money(journey.taxableIncomeCents) });
      assert.ok(annual.ok);
      assert.is(annual.report._tag, 'AnnualTaxReport');
      assert.is(annual.report.liability.cents, journey.liability);
      assert.is(annual.report.rawLiability.cents, journey.rawLiability);
      assert.is(annual.attempts, 1);
    }
    // The generated client reaches every other operation, typed from the same description.
    const { data } = await client.api.GET('/api/v1/calculators', { params: { query: { jurisdiction: 'AU' } } });
    assert.equal(data?.calculators.map((entry) => entry.calculatorId), ['au.pay.take-home', 'au.pay.withholdings', 'au.income-tax.annual']);
  }));

test('a pay run: every item typed and answered by its own calculator, with the conformance figures, a bad item answered on its own', () =>
  withService({ config: { apiExtensions: new Set(['pay-runs']) } }, async (service) => {
    const client = createTaxRulesClient({ baseUrl: service.url });
    const [first, second] = JOURNEYS.pay;
    const annualJourney = JOURNEYS.annual[0]!;
    const run = await client.payRun([
      { id: 'take-home', calculatorId: 'au.pay.take-home', facts: payFacts(first!) },
      { id: 'ledger', calculatorId: 'au.pay.withholdings', facts: payFacts(second!) },
      { id: 'annual', calculatorId: 'au.income-tax.annual', facts: { taxableIncome: money(annualJourney.taxableIncomeCents) } },
      { id: 'negative', calculatorId: 'au.income-tax.annual', facts: { taxableIncome: money(-1) }, help: 'none' },
    ]);
    assert.ok(run.ok);
    const [takeHome, ledger, annual, negative] = run.results;
    assert.ok(takeHome.ok && ledger.ok && annual.ok);
    // Each report has its calculator's type: these fields exist only on the report of that calculator.
    assert.is(takeHome.report.netPay.cents, first!.netCents);
    assert.is(ledger.report.total.cents, second!.withheldCents);
    assert.is(annual.report.liability.cents, annualJourney.liability);
    assert.equal([takeHome.id, ledger.id, annual.id], ['take-home', 'ledger', 'annual']);
    if (negative.ok) throw new Error('expected the negative income to be refused');
    assert.is(negative.status, 400);
    assert.is(negative.error._tag, 'CalculatorInputDecodeError');
    // @ts-expect-error: the facts of the annual calculator are not those of take-home.
    void (() => client.payRun([{ id: 'wrong', calculatorId: 'au.pay.take-home', facts: { taxableIncome: money(1) } }]));
  }));

test('a pay run against a service that does not serve them says so, and a run over its limit is refused whole', async () => {
  await withService({}, async (service) => {
    const run = await createTaxRulesClient({ baseUrl: service.url }).payRun([{ id: 'a', calculatorId: 'au.pay.take-home', facts: payFacts(nurse) }]);
    if (run.ok) throw new Error('expected no pay runs here');
    assert.is(run.status, 404);
    assert.is(run.error._tag, 'ClientUnexpectedResponse');
    assert.match(run.error.message, 'API_EXTENSIONS=pay-runs');
  });
  await withService({ config: { apiExtensions: new Set(['pay-runs']), payRunMaxItems: 1 } }, async (service) => {
    const item = { id: 'a', calculatorId: 'au.pay.take-home', facts: payFacts(nurse) } as const;
    const run = await createTaxRulesClient({ baseUrl: service.url }).payRun([item, { ...item, id: 'b' }]);
    if (run.ok) throw new Error('expected a run over the limit to be refused');
    assert.is(run.status, 400);
    assert.is(run.error._tag, 'CalculatorInputDecodeError');
  });
});

test('400s: undecodable facts, unknown calculator, unserved context, a calculation that cannot complete', async () => {
  // The packs plain `npm start` serves, plus one whose calculation cannot complete.
  const { catalog, defaultTaxYear } = servedPacks({ extraPaths: [ZERO_DIVISOR_PACK] });
  await withService({ deps: { catalog, defaultTaxYear, runner: createInlineRunner(2) } }, async (service) => {
    const client = createTaxRulesClient({ baseUrl: service.url });
    // Negative money has the right type but is not valid input.
    const decode = failure(await client.calculate('au.income-tax.annual', { taxableIncome: money(-1) }, { help: 'none' }));
    assert.is(decode.status, 400);
    assert.is(decode.error._tag, 'CalculatorInputDecodeError');
    if (decode.error._tag === 'CalculatorInputDecodeError') assert.equal(decode.error.issues.map((issue) => issue.path), [['facts', 'taxableIncome', 'cents']]);
    // Values outside the types, as an untyped caller would send them.
    const unknown = failure(await client.calculate('au.pay.retired' as CalculatorId, payFacts(nurse)));
    assert.is(unknown.error._tag, 'UnsupportedCalculatorError');
    const context = failure(await client.calculate('au.pay.take-home', payFacts(nurse), { taxYear: '2019-20' as '2025-26' }));
    assert.is(context.error._tag, 'UnsupportedCalculatorContextError');
    const zero = failure(await client.calculate('test.zero-divisor' as CalculatorId, { amount: money(12345) } as unknown as FactsOf<'au.income-tax.annual'>));
    assert.is(zero.error._tag, 'CalculationError');
    assert.is(zero.status, 400);
  });
});

test('404 and 413: a base URL with a wrong prefix, and a body over 64 KiB', () =>
  withService({}, async (service) => {
    const wrongPrefix = failure(await createTaxRulesClient({ baseUrl: `${service.url}/tax` }).calculate('au.pay.take-home', payFacts(nurse)));
    assert.is(wrongPrefix.status, 404);
    assert.is(wrongPrefix.error._tag, 'RouteNotFound');
    const huge = { ...payFacts(nurse), note: 'x'.repeat(70_000) } as FactsOf<'au.pay.take-home'>;
    const tooLarge = failure(await createTaxRulesClient({ baseUrl: service.url }).calculate('au.pay.take-home', huge));
    assert.is(tooLarge.status, 413);
    assert.is(tooLarge.error._tag, 'CalculatorRequestBodyTooLarge');
  }));

test('429: returned with its retry-after when retry is off, or when the wait is longer than allowed', () =>
  withService({ config: { rateLimitMax: 1, rateLimitWindowSeconds: 60 } }, async (service) => {
    const client = createTaxRulesClient({ baseUrl: service.url });
    assert.ok((await client.calculate('au.pay.take-home', payFacts(nurse))).ok);
    const limited = failure(await client.calculate('au.pay.take-home', payFacts(nurse)));
    assert.is(limited.status, 429);
    assert.is(limited.error._tag, 'CalculatorRateLimited');
    assert.is(limited.retryAfterSeconds, 60);
    assert.is(limited.attempts, 1);
    const waits: number[] = [];
    const impatient = failure(
      await client.calculate('au.pay.take-home', payFacts(nurse), { retry: { maxAttempts: 3, maxWaitSeconds: 10, wait: async (ms) => void waits.push(ms) } }),
    );
    assert.is(impatient.status, 429);
    assert.equal(waits, []);
  }));

test('429 with retry: the client waits what retry-after asks, then succeeds', () =>
  withService({ config: { rateLimitMax: 1, rateLimitWindowSeconds: 1 } }, async (service) => {
    const asked: number[] = [];
    // The service always asks for 60 s; its window here is 1 s, so waiting a little over that is enough.
    const wait = async (milliseconds: number) => {
      asked.push(milliseconds);
      await new Promise((resolve) => setTimeout(resolve, 1200));
    };
    const client = createTaxRulesClient({ baseUrl: service.url, retry: { maxAttempts: 3, wait } });
    assert.ok((await client.calculate('au.pay.take-home', payFacts(nurse))).ok);
    const retried = await client.calculate('au.pay.take-home', payFacts(nurse));
    assert.ok(retried.ok, JSON.stringify(retried));
    assert.is(retried.attempts, 2);
    assert.equal(asked, [60_000]);
  }));

test('503 and 504: capacity, admission and the calculation budget', async () => {
  const { catalog, defaultTaxYear } = servedPacks();
  await withService({ deps: { catalog, defaultTaxYear, runner: createInlineRunner(0) } }, async (service) => {
    const busy = failure(await createTaxRulesClient({ baseUrl: service.url }).calculate('au.pay.take-home', payFacts(nurse)));
    assert.is(busy.status, 503);
    assert.is(busy.error._tag, 'CalculatorCapacityExceeded');
  });
  await withService({ deps: { rateLimiter: { admit: async () => 'unavailable' } } }, async (service) => {
    const unavailable = failure(await createTaxRulesClient({ baseUrl: service.url }).calculate('au.pay.take-home', payFacts(nurse)));
    assert.is(unavailable.error._tag, 'CalculatorAdmissionUnavailable');
  });
  await withService({ config: { calcTimeoutMs: 0 } }, async (service) => {
    const timedOut = failure(await createTaxRulesClient({ baseUrl: service.url }).calculate('au.income-tax.annual', { taxableIncome: money(100) }));
    assert.is(timedOut.status, 504);
    assert.is(timedOut.error._tag, 'CalculatorOperationTimedOut');
  });
});

test('client-side errors: timeout, abort, unreachable, and an answer the description does not document', async () => {
  await withRawServer(() => undefined, async (url) => {
    const slow = failure(await createTaxRulesClient({ baseUrl: url, timeoutMs: 100 }).calculate('au.pay.take-home', payFacts(nurse)));
    assert.equal([slow.status, slow.error._tag], [undefined, 'ClientTimeout']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = failure(await createTaxRulesClient({ baseUrl: url }).calculate('au.pay.take-home', payFacts(nurse), { signal: controller.signal }));
    assert.is(aborted.error._tag, 'ClientAborted');
  });
  let closedUrl = '';
  await withRawServer(() => undefined, async (url) => void (closedUrl = url));
  const unreachable = failure(await createTaxRulesClient({ baseUrl: closedUrl }).calculate('au.pay.take-home', payFacts(nurse)));
  assert.is(unreachable.error._tag, 'ClientNetworkError');
  await withRawServer(
    (_request, response) => response.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    async (url) => {
      const proxy = failure(await createTaxRulesClient({ baseUrl: url }).calculate('au.pay.take-home', payFacts(nurse)));
      assert.equal([proxy.status, proxy.error._tag], [502, 'ClientUnexpectedResponse']);
    },
  );
});

test.run();
