// Lane: services (npm run test:fast leaves this file out).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testOr } from '../helpers/skip.ts';
import { once } from 'node:events';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import { createRateLimiter } from '../../server/limits/rate-limit.ts';
import { connectRedisStore } from '../../server/limits/redis-store.ts';
import { payFacts } from '../helpers/packs.ts';
import { redisUnavailable, startTestRedis, type TestRedis } from '../helpers/redis.ts';
import { startService, stopService, type ServiceProcess } from '../helpers/service-process.ts';
import { startTestServer } from './helpers.ts';

// One rate limit for a fleet: two service processes keep their counts in one real Redis server, as
// two hosts behind a load balancer would. Redis going away or freezing must cost a quick 503, never
// a 500 or a hang, and admission must come back by itself.
const missing = redisUnavailable();
const maybe = testOr(test, missing && `the shared rate-limit tests: ${missing}`);

const BUDGET_MS = 5000;
const admissionUnavailable = {
  error: { _tag: 'CalculatorAdmissionUnavailable', code: 'calculation-admission-unavailable', message: 'The calculation could not be started. Try again when you are ready.', retry: 'try-again-manually' },
};

let redis: TestRedis;
let services: ServiceProcess[] = [];

test.before(async () => {
  if (missing) return;
  redis = await startTestRedis();
  // A store timeout well inside the budget, and long enough that a busy machine does not reach it.
  const env = { REDIS_URL: redis.url, RATE_LIMIT_MAX: '10', CALC_TIMEOUT_MS: String(BUDGET_MS), RATE_LIMIT_STORE_TIMEOUT_MS: '1000' };
  services = await Promise.all([startService(env), startService(env)]);
});
test.after(async () => {
  await Promise.all(services.map(stopService));
  await redis?.close();
});

/** One calculation from the loopback client, with how long its answer took. */
async function calculate(url: string): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/calculators/au.pay.take-home/calculate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ facts: payFacts(100000, 'weekly', true) }),
  });
  return { status: response.status, body: await response.json(), ms: performance.now() - started };
}

async function untilAdmitted(url: string): Promise<number> {
  let status = 0;
  for (const deadline = performance.now() + 30_000; status !== 200 && performance.now() < deadline; ) {
    status = (await calculate(url)).status;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return status;
}

maybe('two instances sharing Redis admit exactly RATE_LIMIT_MAX calculations from one client, whichever answers', async () => {
  const answers: { instance: number; status: number }[] = [];
  for (let index = 0; index < 30; index++) answers.push({ instance: index % 2, status: (await calculate(services[index % 2]!.url)).status });
  const statuses = answers.map((answer) => answer.status).join(' ');
  assert.is(answers.filter((answer) => answer.status === 200).length, 10, statuses);
  assert.is(answers.filter((answer) => answer.status === 429).length, 20, statuses);
  // Both answered some of the ten: the counts are one, not one per instance.
  for (const instance of [0, 1]) assert.ok(answers.some((answer) => answer.instance === instance && answer.status === 200), `instance ${instance} admitted none`);
  assert.equal(answers.slice(0, 10).map((answer) => answer.status), Array(10).fill(200));
});

maybe('with Redis stopped a calculation gets 503 CalculatorAdmissionUnavailable within its budget; once Redis is back, 200 without a restart', async () => {
  await redis.stop();
  for (const service of services) {
    const answer = await calculate(service.url);
    assert.is(answer.status, 503);
    assert.equal(answer.body, admissionUnavailable);
    assert.ok(answer.ms < BUDGET_MS, `answered after ${Math.round(answer.ms)} ms`);
  }
  // Other routes do not depend on the store.
  assert.is((await fetch(`${services[0]!.url}/api/v1/calculators`)).status, 200);
  await redis.start();
  // The restarted Redis kept nothing, so the client has a fresh allowance on every instance.
  for (const service of services) assert.is(await untilAdmitted(service.url), 200);
});

maybe('with Redis frozen a calculation gets 503 within its budget instead of waiting; thawed, 200 again', async () => {
  redis.pause();
  try {
    const answers = await Promise.all(services.map((service) => calculate(service.url)));
    for (const answer of answers) {
      assert.is(answer.status, 503);
      assert.equal(answer.body, admissionUnavailable);
      assert.ok(answer.ms < BUDGET_MS, `answered after ${Math.round(answer.ms)} ms`);
    }
  } finally {
    redis.resume();
  }
  for (const service of services) assert.is(await untilAdmitted(service.url), 200);
});

maybe('in the default thread mode CALC_CONCURRENCY bounds the calculations waiting for admission: one more gets 503 at once', async () => {
  const runner = createInlineRunner(2);
  const client = connectRedisStore(redis.url, 3000, () => undefined);
  await once(client, 'ready');
  const server = await startTestServer({ deps: { runner, rateLimiter: createRateLimiter({ max: 100, windowSeconds: 60, store: { kind: 'redis', client }, timeoutMs: 3000 }) } });
  try {
    redis.pause();
    const waiting = [calculate(server.url), calculate(server.url)];
    while (runner.inUse() < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const third = await calculate(server.url);
    assert.is(third.status, 503);
    assert.is((third.body as { error: { _tag: string } }).error._tag, 'CalculatorCapacityExceeded');
    redis.resume();
    assert.equal((await Promise.all(waiting)).map((answer) => answer.status), [200, 200]);
    assert.is(runner.inUse(), 0);
  } finally {
    redis.resume();
    client.disconnect();
    await server.close();
  }
});

maybe('the store changes are logged without the Redis address, and nothing failed unexpectedly', () => {
  for (const service of services) {
    const output = service.output();
    assert.match(output, /"event":"rate-limit-store","state":"unreachable"/);
    assert.match(output, /"event":"rate-limit-store","state":"ready"/);
    assert.not.match(output, new RegExp(new URL(redis.url).port));
    assert.not.match(output, /unexpected-failure|"status":500/);
  }
});

test.run();
