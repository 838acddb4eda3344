import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { residentPayrollFacts } from '../helpers/payroll-conformance.ts';
import { dayOfFacts, loadPacks, runCalculator, type CalculatorPlan, type TraceNode } from '../../engine/index.ts';
import { shippedPacks, SHIPPED_PACKS } from '../helpers/packs.ts';

// Parameters in effect on a date: the 2025-26 payroll pack holds the July 2025 and September 2025
// study-loan tables, and the payment date chooses. The expected amounts are the tax office's sample
// data (NAT 3539, July 2025 and September 2025 editions): weekly $1,282.00, scale 2, with a study
// loan, withholds $260.00 under the July edition and $234.00 under the September one.
const JULY_2025 = 26000;
const SEPTEMBER_2025 = 23400;

const payroll = (year: string): CalculatorPlan => shippedPacks().catalog.find('au.payroll.withholding', { taxYear: year })!;
const facts = (paymentDate: string, cents = 128200) => residentPayrollFacts(paymentDate, cents, true);
const report = (plan: CalculatorPlan, input: unknown): any => {
  const outcome = runCalculator(plan, input);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return JSON.parse(outcome.json.toString());
};
const failure = (plan: CalculatorPlan, input: unknown): any => {
  const outcome = runCalculator(plan, input);
  assert.ok(!outcome.ok, 'the run should fail');
  return outcome;
};

test('the payment date chooses the study-loan table: the last day of the July 2025 edition and the first of the September one', () => {
  const plan = payroll('2025-26');
  assert.is(report(plan, facts('2025-07-01')).withheld.cents, JULY_2025);
  assert.is(report(plan, facts('2025-09-23')).withheld.cents, JULY_2025);
  assert.is(report(plan, facts('2025-09-24')).withheld.cents, SEPTEMBER_2025);
  assert.is(report(plan, facts('2026-06-30')).withheld.cents, SEPTEMBER_2025);
});

test('the report names the editions applied and the trace shows the table row of the edition in effect', () => {
  const plan = payroll('2025-26');
  for (const [day, edition] of [['2025-09-23', /July 2025 edition/], ['2025-09-24', /September 2025 edition/]] as const) {
    const body = report(plan, facts(day));
    assert.is(body._tag, 'PayrollWithholdingReport');
    assert.is(body.paymentDate, day);
    assert.is(body.scale, 2);
    assert.is(body.netPay.cents, 128200 - body.withheld.cents);
    assert.match(body.schedule8.title, edition);
    assert.match(body.schedule1.title, /July 2024 edition/);
    const nodes: TraceNode[] = [];
    const walk = (node: TraceNode) => (nodes.push(node), node.children.forEach(walk));
    walk(body.trace);
    const weekly = nodes.find((node) => node.ruleId === 'weekly-withholding')!;
    const table = weekly.inputs.parameters['schedule-8-scale-2']!;
    assert.ok(table.matchedRow !== undefined, 'the row matched is traced');
    assert.is(table.effectivePeriod.from <= day && (table.effectivePeriod.toExclusive == null || day < table.effectivePeriod.toExclusive), true, `${day} falls in the traced value's period`);
    assert.ok(weekly.inputs.beforeRounding !== undefined, 'y before rounding is traced');
    assert.is(weekly.rounding, 'ato-withholding-rounding');
  }
});

test('a date outside the pack\'s year is refused before any rule runs, naming the fact and not the value', () => {
  for (const day of ['2026-07-01', '2025-06-30', '2027-01-15']) {
    const outcome = failure(payroll('2025-26'), facts(day));
    assert.is(outcome.failure, 'decode', day);
    assert.equal(outcome.issues.map((issue: { path: string[] }) => issue.path), [['paymentDate']], day);
    assert.is(outcome.issues[0].message, 'must be a day of the 2025-26 tax year this calculation is for, from 2025-07-01 and before 2026-07-01');
  }
});

test('an impossible or malformed date is a decode error naming the fact, without its value', () => {
  for (const day of ['2025-02-30', '2025-13-01', '2025-00-10', '2025-9-30', '15/10/2025', '2025-10-15T00:00:00Z', '2024-02-30']) {
    const outcome = failure(payroll('2025-26'), facts(day));
    assert.is(outcome.failure, 'decode', day);
    assert.equal(outcome.issues.map((issue: { path: string[] }) => issue.path), [['paymentDate']], day);
    assert.not.ok(outcome.issues[0].message.includes(day), day);
    assert.is(dayOfFacts(payroll('2025-26'), facts(day)), undefined, day);
  }
  // 29 February exists in a leap year only.
  assert.is(failure(payroll('2025-26'), facts('2026-02-29')).failure, 'decode');
  assert.is(report(payroll('2024-25'), facts('2025-02-28')).scale, 2);
  assert.is(runCalculator(payroll('2024-25'), facts('2024-02-29')).ok, false);
  assert.is(dayOfFacts(payroll('2024-25'), facts('2024-02-29')), '2024-02-29');
});

/** A copy of the shipped 2025-26 payroll pack with one file rewritten, loaded; its diagnostics. */
function diagnosticsAfter(file: string, edit: (text: string) => string): string[] {
  const root = mkdtempSync(join(tmpdir(), 'dated-parameters-'));
  try {
    const dir = join(root, 'rules-au-payroll', '1.0.0');
    cpSync(join(SHIPPED_PACKS, 'rules-au-payroll', '1.0.0'), dir, { recursive: true });
    const path = join(dir, file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    assert.is.not(after, before, `the edit of ${file} changes it`);
    writeFileSync(path, after);
    return loadPacks([root], { displayRoot: root }).diagnostics.map((diagnostic) => `${diagnostic.kind} ${diagnostic.message}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the shipped payroll packs are clean and plan one part per stretch between changes of value', () => {
  for (const pack of shippedPacks().loaded.packs.filter((report) => report.pack.id === 'rules-au-payroll')) assert.equal(pack.diagnostics, [], pack.pack.dir);
  assert.equal(payroll('2025-26').byDate!.parts.map((part) => part.period), [
    { from: '2025-07-01', toExclusive: '2025-09-24' },
    { from: '2025-09-24', toExclusive: '2026-07-01' },
  ]);
  assert.is(payroll('2026-27').byDate!.parts.length, 1);
});

test('each payroll pack\'s fact examples make a request that its calculator answers (the example date is in its year)', () => {
  for (const year of ['2024-25', '2025-26', '2026-27']) {
    const plan = payroll(year);
    const example = Object.fromEntries(plan.inputFacts.map((fact) => [fact.id, fact.example]));
    assert.ok(runCalculator(plan, example).ok, year);
  }
});

test('a gap between two dated values inside the year is a diagnostic', () => {
  const found = diagnosticsAfter('parameters/schedule-8-scale-2.yaml', (text) => text.replace('{ from: 2025-09-24, toExclusive: 2026-07-01 }', '{ from: 2025-10-01, toExclusive: 2026-07-01 }'));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /^parameter-gap parameter `schedule-8-scale-2` has no value in force for the whole 2025-26 tax year/);
});

test('dated values that overlap are a diagnostic', () => {
  const found = diagnosticsAfter('parameters/schedule-8-scale-2.yaml', (text) => text.replace('{ from: 2025-09-24, toExclusive: 2026-07-01 }', '{ from: 2025-09-01, toExclusive: 2026-07-01 }'));
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /^parameter-overlap parameter `schedule-8-scale-2`: the value from 2025-09-01 overlaps the value from 2025-07-01/);
});

test('a calculator that reads a value changing during the year must name the date that chooses it', () => {
  const found = diagnosticsAfter('calculators/au.payroll.withholding.yaml', (text) => text.replace('parametersInEffectOn: paymentDate\n', ''));
  assert.ok(found.length > 0);
  for (const message of found) assert.match(message, /^parameter-gap calculator `au\.payroll\.withholding` reads parameter `schedule-8-scale-\d`, whose value changes during the 2025-26 tax year \(on 2025-09-24\).*parametersInEffectOn/);
});

test('the date that chooses must be a date input of the calculator', () => {
  assert.equal(diagnosticsAfter('calculators/au.payroll.withholding.yaml', (text) => text.replace('parametersInEffectOn: paymentDate', 'parametersInEffectOn: residency')), [
    'reference calculator `au.payroll.withholding` chooses parameter values by `residency`, which is not a date fact (shape `{ type: date }`)',
  ]);
  const notInput = diagnosticsAfter('calculators/au.payroll.withholding.yaml', (text) => text.replace('parametersInEffectOn: paymentDate', 'parametersInEffectOn: scale'));
  assert.equal(notInput, ['reference calculator `au.payroll.withholding` chooses parameter values by `scale`, which is not one of its inputFacts']);
});

test.run();
