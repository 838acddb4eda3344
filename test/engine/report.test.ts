import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTRACT_SCHEMAS, reportSchemas, runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import { money, payFacts, shippedPacks } from '../helpers/packs.ts';

// The report is written straight as JSON bytes, from pieces prepared with the plan. It must be plain
// JSON in ASCII (no duplicate keys, nothing JSON.stringify would write differently but the escapes of
// characters past U+007F) of exactly the shapes the contract's schemas and the report's template
// schemas describe, for every calculator and input.
const { catalog } = shippedPacks();
const samples = JSON.parse(readFileSync(new URL('../fixtures/conformance/withholding-ato-samples.json', import.meta.url), 'utf8')).cases as {
  grossCents: number;
  period: string;
  taxFreeThresholdClaimed: boolean;
}[];

const validators = new Map<CalculatorPlan, ValidateFunction>();
function validatorOf(plan: CalculatorPlan): ValidateFunction {
  let validate = validators.get(plan);
  if (!validate) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'contract', components: { schemas: { ...CONTRACT_SCHEMAS, ...Object.fromEntries(reportSchemas(plan)) } } });
    validate = ajv.compile({ $ref: `contract#/components/schemas/${plan.report.tag}` });
    validators.set(plan, validate);
  }
  return validate;
}

function check(calculatorId: string, facts: unknown): void {
  const plan = catalog.find(calculatorId)!;
  const outcome = runCalculator(plan, facts);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  if (!outcome.ok) return;
  assert.ok(outcome.json.every((byte) => byte < 0x80), 'ASCII: every other character escaped');
  const json = outcome.json.toString();
  const report = JSON.parse(json);
  assert.is(JSON.stringify(report), withoutAsciiEscapes(json), 'plain JSON, as JSON.stringify writes it but for the escapes');
  const validate = validatorOf(plan);
  assert.ok(validate(report), `${calculatorId}: ${JSON.stringify(validate.errors)}`);
}

/** JSON text with its `\uXXXX` escapes of characters past U+007F written as the characters. */
const withoutAsciiEscapes = (json: string) => json.replace(/\\u([0-9a-f]{4})/g, (escape, hex: string) => (parseInt(hex, 16) > 0x7f ? String.fromCharCode(parseInt(hex, 16)) : escape));

test('pay reports are plain JSON of the contract shapes on every published sample', () => {
  for (const sample of samples) {
    const facts = payFacts(sample.grossCents, sample.period, sample.taxFreeThresholdClaimed);
    check('au.pay.take-home', facts);
    check('au.pay.withholdings', facts);
  }
});

test('all reports are plain JSON of the contract shapes on random inputs', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2_000_000_000 }), fc.constantFrom('weekly', 'fortnightly', 'monthly'), fc.boolean(), (cents, period, claimed) => {
      check('au.pay.take-home', payFacts(cents, period, claimed));
      check('au.income-tax.annual', { taxableIncome: money(cents) });
    }),
    { numRuns: 300, seed: 7 },
  );
});

test('the schema check can fail: a trace node without its rule id is refused', () => {
  const plan = catalog.find('au.income-tax.annual')!;
  const outcome = runCalculator(plan, { taxableIncome: money(5_000_000) });
  assert.ok(outcome.ok);
  if (!outcome.ok) return;
  const report = JSON.parse(outcome.json.toString());
  delete report.trace.children[0].ruleId;
  assert.not.ok(validatorOf(plan)(report));
});

test('the same input gives byte-identical reports, run after run and interleaved with others', () => {
  const plan = catalog.find('au.pay.take-home')!;
  const facts = payFacts(270833, 'monthly', false);
  const first = runCalculator(plan, facts);
  for (const other of [payFacts(1, 'weekly', true), payFacts(99999999, 'fortnightly', false)]) runCalculator(plan, other);
  const again = runCalculator(plan, structuredClone(facts));
  assert.ok(first.ok && again.ok);
  if (first.ok && again.ok) assert.is(again.json.toString(), first.json.toString());
});

test.run();
