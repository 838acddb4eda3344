// An integrator's program: it imports the client by its package name, as any application would,
// and runs each calculator once. Type-checked with strict (tsconfig.json beside it) and run by a
// test against a service started as `npm start` starts it.
import { createTaxRulesClient, type CalculateResult, type CalculatorId } from '@tax-rules-api/client';

const client = createTaxRulesClient({ baseUrl: process.env.TAX_RULES_API_URL ?? 'http://127.0.0.1:4000' });

function reportOrExit<Id extends CalculatorId>(result: CalculateResult<Id>): Extract<CalculateResult<Id>, { ok: true }> {
  if (result.ok) return result;
  process.stderr.write(`${result.error._tag}: ${result.error.message}\n`);
  process.exit(1);
}

const takeHome = reportOrExit(
  await client.calculate('au.pay.take-home', {
    grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 165400, currency: 'AUD' }, period: 'weekly' },
    taxFreeThresholdClaimed: true,
  }),
);
const withholdings = reportOrExit(
  await client.calculate('au.pay.withholdings', {
    grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 346200, currency: 'AUD' }, period: 'fortnightly' },
    taxFreeThresholdClaimed: true,
  }),
);
const annual = reportOrExit(await client.calculate('au.income-tax.annual', { taxableIncome: { _tag: 'Money', cents: 3000000, currency: 'AUD' } }));

// Each report has its calculator's own type: no narrowing needed to read its fields.
process.stdout.write(
  `${JSON.stringify({
    takeHome: { tag: takeHome.report._tag, netPayCents: takeHome.report.netPay.cents, withheldCents: takeHome.report.withholdingsTotal.cents },
    withholdings: { tag: withholdings.report._tag, totalCents: withholdings.report.total.cents },
    annual: { tag: annual.report._tag, liabilityCents: annual.report.liability.cents },
  })}\n`,
);
