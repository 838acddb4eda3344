import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createCatalog, type CalculatorPlan } from '../../engine/index.ts';
import { payFacts } from '../helpers/packs.ts';
import { calculate, servedPacks, startTestServer } from './helpers.ts';

// The service sends a calculation's answer as the one-byte copy of its JSON text, which is right only
// while every character of it is ASCII. Text a pack author writes (a calculator's title, a rule's
// formula) can hold any character: whatever it holds, the answer must decode to it from UTF-8.
const TITLE = 'Take-home pay – après PAYG × 1 ÷ 1 − 0 ✓';
const DESCRIPTION = 'Net pay for one period: gross pay − withholding, “exact” to the cent 💰.';

test('a calculator whose title and description are not ASCII is answered in UTF-8 that decodes to them', async () => {
  const { catalog, defaultTaxYear } = servedPacks();
  const renamed = catalog.plans.map((plan): CalculatorPlan => (plan.def.id === 'au.pay.take-home' ? { ...plan, def: { ...plan.def, title: TITLE, description: DESCRIPTION } } : plan));
  const server = await startTestServer({ deps: { catalog: createCatalog(renamed), defaultTaxYear } });
  try {
    const response = await calculate(server.url, 'au.pay.take-home', { facts: payFacts(165_400, 'weekly', true) });
    assert.is(response.status, 200);
    assert.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.is(Number(response.headers.get('content-length')), bytes.length, 'content-length counts the bytes sent');
    const answer = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    assert.is(answer.calculator.title, TITLE);
    assert.is(answer.calculator.description, DESCRIPTION);
    assert.ok(answer.report.trace.formula.includes('−'), 'formulas keep their minus sign');
  } finally {
    await server.close();
  }
});

test.run();
