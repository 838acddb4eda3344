// Lane: services (npm run test:fast leaves this file out).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendAll } from '../helpers/keep-alive-client.ts';
import { money } from '../helpers/packs.ts';
import { EDITION_SPANS, editionOf, payrollCases, payrollFacts, payrollFiles, payrollLabel, type PayrollCase } from '../helpers/payroll-conformance.ts';
import { startService, stopService, type ServiceProcess } from '../helpers/service-process.ts';
import { responseValidators } from './openapi-check.ts';
import { calculate, servedPacks, startTestServer } from './helpers.ts';

// au.payroll.withholding as an operator who serves every year and every calculator offers it to a
// payroll system, through the service `TAX_YEARS=all CALCULATORS=all npm start` runs:
// - each of the tax office's published sample cases, sent as its declaration and payment, is
//   answered with the published scale and amount to the cent, and names the editions of the
//   schedules applied; the income year is left to the payment date, as a pay run would leave it;
// - each bad answer of a declaration gets a 400 in the contract's shape that names the fact and
//   never repeats the value, and nothing a client sends gets a 5xx.

const CALCULATOR = 'au.payroll.withholding';
const CALCULATE = '/api/v1/calculators/{calculatorId}/calculate';

let service: ServiceProcess;
let check: ReturnType<typeof responseValidators>;
test.before(async () => {
  service = await startService({ TAX_YEARS: 'all', CALCULATORS: 'all', RATE_LIMIT_MAX: '0', CALC_CONCURRENCY: '2' });
  check = responseValidators(await (await fetch(`${service.url}/api/docs/openapi.json`)).json());
});
test.after(async () => {
  await stopService(service);
});

/** The income year (July to June) that holds a date, written as the service writes tax years. */
function incomeYearOf(date: string): string {
  const [year, month] = date.split('-').map(Number) as [number, number];
  const first = month >= 7 ? year : year - 1;
  return `${first}-${String((first + 1) % 100).padStart(2, '0')}`;
}

interface Answer {
  status: number;
  text: string;
  body: any;
}

/** Sends each body to the calculator, a few at a time over kept-alive connections; the answers in order. */
async function sendBodies(bodies: unknown[]): Promise<Answer[]> {
  const answers = await sendAll(
    service.url,
    bodies.map((body) => ({ method: 'POST' as const, path: `/api/v1/calculators/${CALCULATOR}/calculate`, body: typeof body === 'string' ? body : JSON.stringify(body) })),
  );
  return answers.map(({ status, contentType, body }) => {
    const text = body.toString();
    return { status, text, body: contentType?.startsWith('application/json') ? JSON.parse(text) : text };
  });
}

const sendCases = (cases: PayrollCase[], body: (item: PayrollCase) => unknown = (item) => ({ facts: payrollFacts(item) })) => sendBodies(cases.map(body));

/** Every way an answer differs from its published case, so that one run names every wrong figure. */
function mismatches(cases: (PayrollCase & { file?: string })[], answers: Answer[]): string[] {
  const wrong: string[] = [];
  cases.forEach((item, at) => {
    const { status, body } = answers[at]!;
    const label = payrollLabel(item);
    if (status !== 200) return wrong.push(`${label}: status ${status} ${JSON.stringify(body).slice(0, 300)}`);
    const report = body.report;
    if (report?._tag !== 'PayrollWithholdingReport') return wrong.push(`${label}: report ${String(report?._tag)}`);
    if (report.scale !== item.scale) wrong.push(`${label}: scale ${String(report.scale)}, published ${item.scale}`);
    if (report.withheld?.cents !== item.withheldCents) wrong.push(`${label}: withheld ${String(report.withheld?.cents)}, published ${item.withheldCents}`);
    if (report.netPay?.cents !== item.grossCents - item.withheldCents) wrong.push(`${label}: net pay ${String(report.netPay?.cents)}, expected ${item.grossCents - item.withheldCents}`);
    if (body.calculator?.context?.taxYear !== incomeYearOf(item.paymentDate)) wrong.push(`${label}: answered for ${String(body.calculator?.context?.taxYear)}`);
  });
  return wrong;
}

test('the payroll conformance data: 7,282 published cases in seven files, each naming its source', () => {
  const files = payrollFiles();
  assert.is(files.length, 7);
  for (const file of files) {
    assert.ok(file.description.length > 100 && file.source.kind === 'ato-publication' && file.source.reference.length > 0, file.file);
    assert.ok(file.cases.length > 0, file.file);
  }
  assert.is(payrollCases().length, 7282);
});

test('TAX_YEARS=all CALCULATORS=all npm start answers every published case with its scale and amount, to the cent', async () => {
  const cases = payrollCases();
  const answers = await sendCases(cases);
  assert.equal(mismatches(cases, answers), []);
  // Every scale and every period is among them, so no branch of the declaration goes untested.
  assert.equal([...new Set(cases.map((item) => item.scale))].sort(), [1, 2, 3, 4, 5, 6]);
  assert.equal([...new Set(cases.map((item) => item.period))].sort(), ['fortnightly', 'monthly', 'weekly']);
});

test('each answer names the editions of Schedule 1 and Schedule 8 its payment date selects, as the published files name them', async () => {
  const files = payrollFiles();
  const schedule1Files = files.filter((file) => file.file.startsWith('nat1004-') && editionOf(file));
  /** The Schedule 1 edition whose span holds the day. */
  const schedule1On = (day: string) => editionOf(schedule1Files.find((file) => EDITION_SPANS[file.file]!.first <= day && day <= EDITION_SPANS[file.file]!.last)!);
  // The first case of each scale, period and study-loan answer in every file.
  const chosen = new Map<string, PayrollCase & { file: string }>();
  for (const item of payrollCases()) {
    const key = `${item.file} ${item.scale} ${item.period} ${item.studyLoan}`;
    if (!chosen.has(key)) chosen.set(key, item);
  }
  const cases = [...chosen.values()];
  const answers = await sendCases(cases);
  const wrong: string[] = [];
  cases.forEach((item, at) => {
    const report = answers[at]!.body.report;
    const schedule1 = schedule1On(item.paymentDate)!;
    if (report.schedule1?.reference !== 'NAT 1004' || !report.schedule1?.title?.includes(`${schedule1} edition`)) wrong.push(`${payrollLabel(item)}: schedule1 ${JSON.stringify(report.schedule1)}, expected the ${schedule1} edition`);
    const schedule8 = editionOf(files.find((file) => file.file === item.file)!);
    if (item.file.startsWith('nat3539-') && (report.schedule8?.reference !== 'NAT 3539' || !report.schedule8?.title?.includes(`${schedule8} edition`))) {
      wrong.push(`${payrollLabel(item)}: schedule8 ${JSON.stringify(report.schedule8)}, expected the ${schedule8} edition`);
    }
  });
  assert.ok(cases.length > 80, `${cases.length} cases`);
  assert.equal(wrong, []);
});

test('a taxYear that agrees with the payment date is answered as without one', async () => {
  const cases = payrollFiles().map((file) => file.cases[file.cases.length >> 1]!);
  const named = await sendCases(cases, (item) => ({ facts: payrollFacts(item), taxYear: incomeYearOf(item.paymentDate) }));
  assert.equal(mismatches(cases, named), []);
  const unnamed = await sendCases(cases);
  assert.equal(
    named.map((answer) => answer.body),
    unnamed.map((answer) => answer.body),
  );
});

test('the comparison can fail: another scale, a cent more or another year is noticed', async () => {
  const [item] = payrollFiles()[0]!.cases;
  const [answer] = await sendCases([item!]);
  assert.equal(mismatches([item!], [answer!]), []);
  assert.is(mismatches([{ ...item!, scale: item!.scale + 1 }], [answer!]).length, 1);
  assert.is(mismatches([{ ...item!, withheldCents: item!.withheldCents + 1 }], [answer!]).length, 2);
  assert.is(mismatches([{ ...item!, paymentDate: '2030-10-15' }], [answer!]).length, 1);
});

const declaration = {
  grossPay: { _tag: 'GrossPay', amount: money(165_400), period: 'weekly' },
  paymentDate: '2025-10-15',
  residency: 'resident',
  tfnProvided: true,
  taxFreeThresholdClaimed: true,
  medicareLevyExemption: 'none',
  studyLoan: false,
};

/** A 400 of this kind, as the served description declares it, whose issues are at these paths; its error object. */
async function refused(body: unknown, tag: string): Promise<any> {
  const answer = (await sendBodies([body]))[0]!;
  assert.is(answer.status, 400, `${JSON.stringify(body)}: ${answer.text.slice(0, 300)}`);
  const validate = check(CALCULATE, 'post', 400);
  assert.ok(validate(answer.body), `${tag}: ${JSON.stringify(validate.errors)}`);
  assert.is(answer.body.error._tag, tag, answer.text.slice(0, 300));
  return answer.body.error;
}

/** The issues' paths, each written facts.name. */
const pathsOf = (error: any): string[] => error.issues.map((issue: any) => issue.path.join('.'));

test('a complete declaration is answered, so that each refusal below is for its one bad answer', async () => {
  const answer = (await sendBodies([{ facts: declaration }]))[0]!;
  assert.is(answer.status, 200, answer.text.slice(0, 300));
  assert.ok(check(CALCULATE, 'post', 200)(answer.body), 'the answer is as the description declares');
  assert.is(answer.body.report._tag, 'PayrollWithholdingReport');
});

test('each bad answer of the declaration is a decode error naming its fact, without the value', async () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['unknown residency', { ...declaration, residency: 'martian-zq' }, 'facts.residency', /martian-zq/],
    ['a quarter Medicare levy exemption', { ...declaration, medicareLevyExemption: 'quarter' }, 'facts.medicareLevyExemption', /quarter/],
    ['a residency of the wrong type', { ...declaration, residency: 74_123 }, 'facts.residency', /74123/],
    ['a TFN answer that is not a boolean', { ...declaration, tfnProvided: 'yes-zq' }, 'facts.tfnProvided', /yes-zq/],
    ['a threshold answer that is not a boolean', { ...declaration, taxFreeThresholdClaimed: 'no-zq' }, 'facts.taxFreeThresholdClaimed', /no-zq/],
    ['a study-loan answer that is not a boolean', { ...declaration, studyLoan: 'HELP-zq' }, 'facts.studyLoan', /HELP-zq/],
    ['an impossible date', { ...declaration, paymentDate: '2025-02-30' }, 'facts.paymentDate', /2025-02-30/],
    ['a thirteenth month', { ...declaration, paymentDate: '2025-13-01' }, 'facts.paymentDate', /2025-13-01/],
    ['a date not written YYYY-MM-DD', { ...declaration, paymentDate: '15/10/2025' }, 'facts.paymentDate', /15\/10\/2025/],
    ['a date with a time', { ...declaration, paymentDate: '2025-10-15T09:00:00Z' }, 'facts.paymentDate', /T09/],
    ['a date as a number', { ...declaration, paymentDate: 20_251_015 }, 'facts.paymentDate', /20251015/],
    ['a pay period payroll does not have', { ...declaration, grossPay: { ...declaration.grossPay, period: 'quarterly-zq' } }, 'facts.grossPay.period', /quarterly-zq/],
  ];
  for (const [what, facts, path, value] of cases) {
    const error = await refused({ facts }, 'CalculatorInputDecodeError');
    assert.equal(pathsOf(error), [path], what);
    assert.is(error.calculatorId, CALCULATOR, what);
    assert.not.match(JSON.stringify(error), value, `${what}: the value is not repeated`);
  }
});

test('a missing answer is a decode error naming the fact', async () => {
  for (const fact of Object.keys(declaration)) {
    const facts: Record<string, unknown> = { ...declaration };
    delete facts[fact];
    const error = await refused({ facts }, 'CalculatorInputDecodeError');
    assert.equal(pathsOf(error), [`facts.${fact}`], `without ${fact}`);
    assert.match(error.issues[0].message, /required/, `without ${fact}`);
  }
});

test('an extra fact is a decode error that names it among the facts, without its value', async () => {
  const error = await refused({ facts: { ...declaration, salarySacrificeZq: 'VALUE-zq' } }, 'CalculatorInputDecodeError');
  assert.equal(pathsOf(error), ['facts']);
  assert.match(error.issues[0].message, /not allowed/);
  assert.not.match(JSON.stringify(error), /VALUE-zq/);
});

test('a taxYear that contradicts the payment date is a 400 naming the payment date, and the year is not guessed', async () => {
  for (const [paymentDate, taxYear] of [
    ['2025-10-15', '2024-25'],
    ['2025-06-30', '2025-26'],
    ['2026-07-01', '2025-26'],
  ]) {
    const error = await refused({ facts: { ...declaration, paymentDate }, taxYear }, 'CalculatorInputDecodeError');
    assert.equal(pathsOf(error), ['facts.paymentDate'], `${paymentDate} in ${taxYear}`);
  }
});

test('a payment date outside every served year is UnsupportedCalculatorContextError, whatever else is wrong', async () => {
  for (const paymentDate of ['2024-06-30', '2027-07-01', '1999-01-01', '2099-12-31']) {
    const error = await refused({ facts: { ...declaration, paymentDate } }, 'UnsupportedCalculatorContextError');
    assert.is(error.requestedCalculator, CALCULATOR, paymentDate);
  }
});

test('with only the default year served, a payment made in another year is UnsupportedCalculatorContextError', async () => {
  // In process: this is what CALCULATORS=all without TAX_YEARS serves.
  const { catalog, defaultTaxYear } = servedPacks({ calculators: 'all' });
  const defaultYear = await startTestServer({ deps: { catalog, defaultTaxYear } });
  try {
    const served = await calculate(defaultYear.url, CALCULATOR, { facts: declaration });
    assert.is(served.status, 200, await served.text());
    for (const paymentDate of ['2025-06-30', '2026-07-01']) {
      const answer = await calculate(defaultYear.url, CALCULATOR, { facts: { ...declaration, paymentDate } });
      const text = await answer.text();
      assert.is(answer.status, 400, paymentDate);
      assert.is(JSON.parse(text).error._tag, 'UnsupportedCalculatorContextError', text.slice(0, 300));
    }
  } finally {
    await defaultYear.close();
  }
});

test('nothing a client sends gets a 5xx: hostile values for each answer and for the whole body', async () => {
  const hostile: unknown[] = [null, true, 0, -1, 1e308, '', ' ', 'x'.repeat(10_000), [], {}, { _tag: 'GrossPay' }, ['resident'], '\u0000', '0000-00-00', '2025-02-29', '2024-02-29x'];
  const bodies: { body: unknown; valid: boolean }[] = ['', '{', 'null', '[]', '"facts"', { facts: null }, { facts: [] }, { facts: declaration, taxYear: 'next' }, { facts: declaration, jurisdiction: 'NZ' }].map((body) => ({ body, valid: false }));
  for (const [fact, answer] of Object.entries(declaration)) {
    // `true` is a valid answer to the three yes-or-no questions; everything else here is refused.
    for (const value of hostile) bodies.push({ body: { facts: { ...declaration, [fact]: value } }, valid: typeof answer === 'boolean' && typeof value === 'boolean' });
  }
  const answers = await sendBodies(bodies.map(({ body }) => body));
  bodies.forEach(({ body, valid }, at) => {
    const { status, text } = answers[at]!;
    const what = `${JSON.stringify(body).slice(0, 200)}: ${status} ${text.slice(0, 300)}`;
    assert.is(status, valid ? 200 : 400, what);
    if (!valid) assert.ok(check(CALCULATE, 'post', 400)(JSON.parse(text)), what);
  });
});

test.run();
