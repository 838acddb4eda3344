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

test.run();
