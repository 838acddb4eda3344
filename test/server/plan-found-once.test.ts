import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Catalog } from '../../engine/index.ts';
import { createInlineRunner } from '../../server/calculate/inline-runner.ts';
import { payFacts } from '../helpers/packs.ts';
import { calculate, servedPacks, startTestServer } from './helpers.ts';

// A calculate request finds its calculator's plan once: the route resolves it, and the calculation
// runs on the plan it was handed (a calculation worker, which cannot be handed a plan, finds it by
// its key: test/server/process.test.ts runs one).

test('one catalog look-up per calculate request, however the request names its context', async () => {
  const { catalog, defaultTaxYear } = servedPacks();
  let lookUps = 0;
  const counting: Catalog = {
    ...catalog,
    plans: catalog.plans,
    find: (...args) => (lookUps++, catalog.find(...args)),
    onDate: (...args) => (lookUps++, catalog.onDate(...args)),
  };
  const server = await startTestServer({ deps: { catalog: counting, defaultTaxYear, runner: createInlineRunner(2) } });
  try {
    for (const body of [{ facts: payFacts(346200, 'fortnightly', true) }, { facts: payFacts(346200, 'fortnightly', true), taxYear: defaultTaxYear, jurisdiction: 'AU' }]) {
      lookUps = 0;
      const response = await calculate(server.url, 'au.pay.take-home', body);
      assert.is(response.status, 200);
      await response.arrayBuffer();
      assert.is(lookUps, 1, JSON.stringify(body));
    }
  } finally {
    await server.close();
  }
});

test.run();
