import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextYearFixture, payFacts, SHIPPED_PACKS } from '../helpers/packs.ts';
import { runToExit, startService } from '../helpers/service-process.ts';

const OTHER_YEAR_PACKS = nextYearFixture().root;
const otherYear = () => nextYearFixture().taxYear.id;

// The tax years served, as an operator meets them: `npm start` with or without TAX_YEARS and
// DEFAULT_TAX_YEAR, as a separate process.
const CONTRACT = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/contract/enumerations.json', import.meta.url)), 'utf8'));
const BOTH = [SHIPPED_PACKS, OTHER_YEAR_PACKS].join(delimiter);

test('plain npm start serves exactly the enumerations of the contract', async () => {
  const service = await startService({ RULEPACKS_DIR: BOTH });
  try {
    const get = async (path: string): Promise<any> => (await fetch(`${service.url}${path}`)).json();
    const schemas = (await get('/api/docs/openapi.json')).components.schemas;
    const withoutNull = (values: unknown[]) => values.filter((value) => value !== null);
    assert.equal(schemas.Context.properties.jurisdiction.enum, CONTRACT.jurisdiction);
    assert.equal(schemas.Context.properties.taxYear.enum, CONTRACT.taxYear);
    assert.equal(withoutNull(schemas['au.pay.take-home.RunRequest'].properties.taxYear.enum), CONTRACT.taxYear);
    assert.equal(withoutNull(schemas['au.pay.take-home.RunRequest'].properties.jurisdiction.enum), CONTRACT.jurisdiction);
    assert.equal(schemas.CalculatorEntry.properties.calculatorId.enum, CONTRACT.calculatorId);
    assert.equal(schemas.CalculatorEntry.properties.supportedHelpModes.items.enum, CONTRACT.helpMode);
    assert.equal(schemas.PayFacts.properties.grossPay.properties.period.enum, CONTRACT.payPeriod);
    assert.equal(schemas.Money.properties.currency.enum, CONTRACT.currency);
    for (const [report, version] of Object.entries(CONTRACT.rulePackVersion)) assert.equal(schemas[report].properties.rulePackVersion, { const: version }, report);
    assert.equal((await get('/api/v1/tax-years')).taxYears, CONTRACT.jurisdiction.flatMap((jurisdiction: string) => CONTRACT.taxYear.map((taxYear: string) => ({ jurisdiction, taxYear }))));
    assert.equal((await get('/api/v1/calculators')).calculators.map((entry: any) => entry.calculatorId), CONTRACT.calculatorId);
    assert.equal([service.listening.taxYears, service.listening.defaultTaxYear], [CONTRACT.taxYear, CONTRACT.taxYear[0]]);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

test('TAX_YEARS=all with DEFAULT_TAX_YEAR (and CALCULATORS=all) serves every shipped year, on worker threads too', async () => {
  const service = await startService({ RULEPACKS_DIR: BOTH, TAX_YEARS: 'all', DEFAULT_TAX_YEAR: otherYear(), CALCULATORS: 'all', CALC_ISOLATION: 'worker' });
  try {
    assert.ok((service.listening.taxYears as string[]).includes(otherYear()));
    assert.ok((service.listening.taxYears as string[]).includes(CONTRACT.taxYear[0]));
    const years = ((await (await fetch(`${service.url}/api/v1/tax-years`)).json()) as any).taxYears.map((entry: any) => entry.taxYear);
    assert.equal(years, service.listening.taxYears);
    const run = (body: object) =>
      fetch(`${service.url}/api/v1/calculators/au.pay.take-home/calculate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) => response.json() as Promise<any>);
    const facts = payFacts(346200, 'fortnightly', true);
    assert.is((await run({ facts })).calculator.context.taxYear, otherYear());
    assert.is((await run({ facts, taxYear: CONTRACT.taxYear[0] })).report.rulePackVersion, CONTRACT.rulePackVersion.TakeHomePayReport);
    // A calculator served on request, its year taken from the payment date, calculated on a worker thread.
    // NAT 3539 sample data, September 2025 edition: weekly $1,282.00, scale 2, with a study loan, $234.00.
    const payroll = await fetch(`${service.url}/api/v1/calculators/au.payroll.withholding/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        facts: {
          grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 128200, currency: 'AUD' }, period: 'weekly' },
          paymentDate: '2025-09-30',
          residency: 'resident',
          tfnProvided: true,
          taxFreeThresholdClaimed: true,
          medicareLevyExemption: 'none',
          studyLoan: true,
        },
      }),
    }).then((response) => response.json() as Promise<any>);
    assert.equal([payroll.calculator.context.taxYear, payroll.report.scale, payroll.report.withheld.cents], [CONTRACT.taxYear[0], 2, 23400]);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

test('bad tax-year and calculator settings stop the boot before anything starts, naming the setting', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ TAX_YEARS: '1900-01' }, /TAX_YEARS names 1900-01, which no loaded rule pack serves/],
    [{ TAX_YEARS: 'every year' }, /TAX_YEARS must be all or a comma-separated list of tax years/],
    [{ RULEPACKS_DIR: BOTH, DEFAULT_TAX_YEAR: otherYear() }, /DEFAULT_TAX_YEAR must be one of the tax years served/],
    [{ CALCULATORS: 'au.pay.retired' }, /CALCULATORS names au\.pay\.retired, which no loaded rule pack defines/],
    [{ CALCULATORS: 'every calculator' }, /CALCULATORS must be all or a comma-separated list of calculator ids/],
  ];
  for (const [env, message] of cases) {
    const { code, output } = await runToExit(env);
    assert.is(code, 1, JSON.stringify(env));
    assert.match(output, message);
    assert.not.match(output, /"event":"listening"/);
  }
});

test.run();
