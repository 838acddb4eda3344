import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCalculator } from '../../engine/index.ts';
import { calculate } from '../../server/calculate/calculation.ts';
import { explanation } from '../../tools/explain/explanation.ts';
import { selectPlan } from '../../tools/explain/select.ts';
import { money, nextYearFixture, payFacts, shippedPacks } from '../helpers/packs.ts';
import { cli, suiteRuns } from './cli.ts';

// explain, spawned: the text explanation and the --json body checked against what the service's own
// calculate() returns, facts from standard input with another packs folder, and each failure's exit code.

const nurse = JSON.stringify(payFacts(165400, 'weekly', true));
const nextYear = nextYearFixture();
const annualFacts = { taxableIncome: money(4000050) };

const runs = suiteRuns({
  text: () => cli('explain', ['au.pay.take-home', '--facts', nurse]),
  json: () => cli('explain', ['au.income-tax.annual', '--facts', JSON.stringify(annualFacts), '--context', 'AU/2025-26', '--json']),
  nextYear: () => cli('explain', ['au.pay.take-home', '--facts', '-', '--packs', nextYear.root, '--context', `AU/${nextYear.taxYear.id}`], { input: JSON.stringify(payFacts(346200, 'fortnightly', true)) }),
  decode: () => cli('explain', ['au.pay.take-home', '--facts', JSON.stringify({ grossPay: { _tag: 'GrossPay', amount: 5, period: 'daily' } })]),
  unknownCalculator: () => cli('explain', ['au.pay.takehome', '--facts', '{}']),
  help: () => cli('explain', ['--help']),
});
test.before(runs.start);

test('take-home pay: the figures in dollars and cents, then the trace as a tree with formula, facts, the matched row, its period and source', async () => {
  const { status, stdout, stderr } = await runs.get('text');
  assert.is(status, 0, stderr);
  const lines = stdout.split('\n');
  assert.is(lines[0], 'Take-home pay (au.pay.take-home), AU 2025-26, rule pack rules-au-pay/1.0.0');
  for (const line of ['  grossPay                 $1,654.00', '  netPay                   $1,301.00', '  period                   weekly', '  withholdings.components', '      PAYG withholding  + $353.00  (additive, active)']) {
    assert.ok(lines.includes(line), line);
  }
  const trace = stdout.slice(stdout.indexOf('\nTrace\n'));
  const expected = [
    '● Take-home pay  [rule net-pay]',
    '  formula         grossPay.amount − withholdingsTotal',
    '  facts           grossPay = { amount: $1,654.00, period: weekly }',
    '                  withholdingsTotal = $353.00',
    '  result          $1,301.00  (rounding: none)',
    '    ● Pay withholdings ledger  [rule withholdings-ledger]',
    '        ● PAYG withholding  [rule payg-withholding]',
    '          parameters      withholding-scale-2 (Withholding coefficients, scale 2 (tax-free threshold claimed))',
    '                              row 7: below 2596, a 0.3200, b 176.5769',
    '                              in effect 2024-07-01 to before 2026-07-01; source nat-1004 (NAT 1004)',
    '          intermediate    period = weekly',
    '                          weeklyEarnings = 165499',
    // 0.32 × 1654.99 − 176.5769 = 353.0199 dollars, rounded once, to the dollar: no cent rounding first.
    '                          weeklyWithholding = 35300 (before rounding 35301.99)',
    '          result          $353.00  (rounding: ato-withholding-rounding)',
    '          sources         NAT 1004: Schedule 1 – Statement of formulas for calculating amounts to be withheld (published 16 June 2024, applies to payments made from 1 July 2024) (ato-publication)',
    '            ● Taxable pay  [rule taxable-pay]',
  ];
  let at = 0;
  for (const line of expected) {
    const found = trace.indexOf(`\n${line}\n`, at);
    assert.ok(found >= 0, `missing, or out of order: ${line}\n${trace}`);
    at = found;
  }
  assert.is(stdout.match(/●/g)?.length, 4, 'each of the four steps once');
});

test('annual tax (in-process): ledger components, each parameter value with its period, the amount below a marginal row, and the step the report leaves untraced', () => {
  // The figures below are the 2025-26 ones: named, so packs for other years change nothing here.
  const plan = shippedPacks().catalog.find('au.income-tax.annual', { taxYear: '2025-26' })!;
  const outcome = runCalculator(plan, annualFacts);
  assert.ok(outcome.ok);
  const stdout = explanation(plan, JSON.parse((outcome as { json: Buffer }).json.toString()), annualFacts);
  for (const line of [
    '      Low income tax offset  − $574.97  (subtractive, active)',
    '  liability            $3,713.12',
    '                      row 2: from 18200, rate 0.16; amount due below the row $0.00',
    '                      $28,011.00',
    '                      in effect from 2025-07-01; source ato-medicare-levy-reduction (Medicare levy reduction for low-income earners)',
    '                      0.02 (ratio)',
    // 0.05 × ($40,000.50 − $37,500) = 12502.5 cents, rounded to the cent once.
    '  intermediate    taper = 12503 (before rounding 12502.5)',
    '    ● Annual tax ledger  [rule annual-tax-ledger] (shown above)',
    'Steps the report does not trace',
    '● Tax payable  [rule liability]',
    '  formula         max(0, rawLiability)',
  ]) {
    // Depth in the tree is checked by the take-home test; here only what each line says.
    assert.ok(stdout.split('\n').some((candidate) => candidate.trim() === line.trim()), `${line}\n${stdout}`);
  }
});

test('--json is byte for byte the body the service answers with', async () => {
  const { status, stdout } = await runs.get('json');
  assert.is(status, 0);
  const served = calculate({ plan: shippedPacks().catalog.find('au.income-tax.annual', { jurisdiction: 'AU', taxYear: '2025-26' })!, facts: annualFacts }, 5_000);
  assert.is(served.kind, 'ok');
  assert.is(stdout, `${Buffer.from((served as { body: Uint8Array }).body).toString()}\n`);
  const body = JSON.parse(stdout);
  assert.equal(Object.keys(body), ['calculator', 'diagnostics', 'report']);
  assert.equal(body.diagnostics, { _tag: 'CalculationDiagnostics', graphIssues: [] });
});

test('facts on standard input, another packs folder and its context: the next-year figures', async () => {
  const { status, stdout, stderr } = await runs.get('nextYear');
  assert.is(status, 0, stderr);
  assert.ok(stdout.startsWith(`Take-home pay (au.pay.take-home), AU ${nextYear.taxYear.id}, rule pack ${nextYear.rulePackVersion}\n`), stdout);
  assert.match(stdout, /^ {2}withholdingsTotal +\$702\.00$/m);
  assert.match(stdout, /^ {2}netPay +\$2,760\.00$/m);
  assert.ok(stdout.includes('row 7: below 2650, a 0.3000, b 168.5000'), stdout);
});

test('facts that do not decode: each issue as path: message on stderr, exit 1', async () => {
  const { status, stdout, stderr } = await runs.get('decode');
  assert.is(status, 1);
  assert.is(stdout, '');
  assert.ok(stderr.startsWith('explain: the facts do not decode for au.pay.take-home:\n'), stderr);
  assert.match(stderr, /^ {2}facts\.taxFreeThresholdClaimed: is required: expected true or false$/m);
  assert.match(stderr, /^ {2}facts\.grossPay\.amount: expected a Money object/m);
  assert.match(stderr, /^ {2}facts\.grossPay\.period: expected one of "weekly", "fortnightly", "monthly"$/m);
});

test('an unknown calculator: exit 2 with the nearest name and the known ones', async () => {
  const calculator = await runs.get('unknownCalculator');
  assert.is(calculator.status, 2);
  assert.ok(calculator.stderr.includes('explain: unknown calculator `au.pay.takehome`; did you mean `au.pay.take-home`?\nexplain: calculators: au.pay.take-home, au.pay.withholdings, au.income-tax.annual, au.payroll.withholding\n'), calculator.stderr);
});

test('contexts (in-process): a missing part matches any, as in the API, the default year when none is named; an unknown one names the nearest', () => {
  const { catalog } = shippedPacks();
  // The serving file's default year is the contract's; other years' packs may be shipped beside it.
  for (const context of [undefined, 'AU', 'AU/2025-26', '/2025-26']) {
    const selected = selectPlan(catalog, 'au.pay.take-home', context, '2025-26');
    assert.ok(selected.ok && selected.plan.context.taxYear === '2025-26', String(context));
  }
  const unknown = selectPlan(catalog, 'au.pay.take-home', 'AU/2025-27');
  assert.is(unknown.ok, false);
  const [problem, contexts] = (unknown as { problems: string[] }).problems;
  assert.is(problem, '`au.pay.take-home` is not available for AU/2025-27; did you mean AU/2025-26?');
  assert.match(contexts!, /^contexts: (\S+, )*AU\/2025-26(, \S+)*$/);
});

test('--help: usage, every option, the output and the exit codes', async () => {
  const { status, stdout } = await runs.get('help');
  assert.is(status, 0);
  for (const words of ['Usage: explain <calculatorId> --facts <file|-|json> [--context JURISDICTION/TAXYEAR]', '--packs <dir>', '--json', 'before rounding', 'Exit codes', '0  the calculation ran', '1  the facts do not decode', '2  usage error']) {
    assert.ok(stdout.includes(words), words);
  }
});

test.run();
