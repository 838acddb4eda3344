import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PackOutcome } from '../../tools/validate-pack/check.ts';
import { dollars, formatFigure } from '../../tools/lib/money.ts';
import { formatReport } from '../../tools/validate-pack/report.ts';

test('money figures show cents and dollars; other figures show as JSON', () => {
  assert.is(formatFigure(35300, true), '35300 ($353.00)');
  assert.is(formatFigure(130100, true), '130100 ($1,301.00)');
  assert.is(formatFigure(-5, true), '-5 (-$0.05)');
  assert.is(formatFigure(12.5, true), '12.5', 'a money figure that is not whole cents is shown as written');
  assert.is(formatFigure('weekly', false), '"weekly"');
  assert.is(formatFigure(true, false), 'true');
  assert.is(dollars(123456789), '$1,234,567.89');
});

const pack: PackOutcome = {
  id: 'fixture-pay',
  version: '1.0.0',
  dir: 'packs/fixture-pay/1.0.0',
  counts: { files: 8, sources: 2, facts: 3, parameters: 1, rules: 2, calculators: 1, examples: 2, examplesPassed: 0 },
  diagnostics: [],
  notices: [],
  examplesRun: true,
  examples: [
    { name: 'bad facts', calculator: 'fixture.pay.net', passed: false, file: 'examples/worked.yaml', line: 2, column: 5, mismatches: [], error: 'the facts do not decode: grossPay is required' },
    { name: 'wrong figure', calculator: 'fixture.pay.net', passed: false, file: 'examples/worked.yaml', line: 7, column: 5, mismatches: [{ fact: 'levy', expected: 100, actual: 99 }] },
  ],
  unreadable: [],
  moneyFacts: new Set(['levy']),
};

test('an example that could not run is reported with the error that stopped it', () => {
  const text = formatReport([pack]);
  assert.ok(text.includes('examples/worked.yaml:2:5 example `bad facts` (fixture.pay.net) could not run: the facts do not decode: grossPay is required'), text);
  assert.ok(text.includes('examples/worked.yaml:7:5 example `wrong figure` (fixture.pay.net) does not give the expected figures\n    levy: expected 100 ($1.00), actual 99 ($0.99)'), text);
  assert.ok(text.endsWith('FAILED: 1 of 1 pack has problems (0 diagnostics, 2 failing examples)\n'), text);
});

test('a clean pack with carried values is clean, but says what to review; the notices are listed and counted', () => {
  const notice = { kind: 'carried-value' as const, message: 'parameter `levy-rate`: carried', location: { file: 'parameters/levy-rate.yaml', line: 9, column: 5 } };
  const clean = { ...pack, examples: [], counts: { ...pack.counts, examples: 0 }, notices: [notice, { ...notice, location: { ...notice.location, line: 12 } }], carriedFrom: 'fixture-pay/0.9.0 (2030-31)' };
  const text = formatReport([clean]);
  assert.ok(text.includes('\nparameters/levy-rate.yaml:9:5 carried-value parameter `levy-rate`: carried\nparameters/levy-rate.yaml:12:5 carried-value'), text);
  assert.ok(text.includes('\n  clean, but 2 values carried unchanged from fixture-pay/0.9.0 (2030-31) need updating or confirming (carried-value notices)\n'), text);
  assert.ok(text.endsWith('OK: 1 pack clean, no diagnostics, 0/0 examples passed; 2 notices to review\n'), text);
  const failing = formatReport([{ ...pack, notices: [notice] }]);
  assert.ok(failing.endsWith('FAILED: 1 of 1 pack has problems (0 diagnostics, 2 failing examples, 1 notice)\n'), failing);
});

test.run();
