// Type tests, checked by tsc with strict (never run): each `@ts-expect-error` must meet an error,
// or tsc fails with "Unused '@ts-expect-error' directive". So a wrong facts shape must not compile.
import type { CalculateError, CalculateResult, FactsOf, Report, ReportOf, ServiceError } from '@tax-rules-api/client';
import { createTaxRulesClient } from '@tax-rules-api/client';

const client = createTaxRulesClient({ baseUrl: 'http://127.0.0.1:4000' });
const money = (cents: number) => ({ _tag: 'Money', cents, currency: 'AUD' }) as const;

export async function wrongShapes(): Promise<void> {
  // @ts-expect-error the annual calculator's facts (shape B) are not the pay calculators' (shape A)
  await client.calculate('au.pay.take-home', { taxableIncome: money(100) });
  // @ts-expect-error shape A for the annual calculator
  await client.calculate('au.income-tax.annual', { grossPay: { _tag: 'GrossPay', amount: money(100), period: 'weekly' }, taxFreeThresholdClaimed: true });
  // @ts-expect-error a pay period the API does not have
  await client.calculate('au.pay.withholdings', { grossPay: { _tag: 'GrossPay', amount: money(100), period: 'daily' }, taxFreeThresholdClaimed: true });
  // @ts-expect-error a required fact left out
  await client.calculate('au.pay.take-home', { grossPay: { _tag: 'GrossPay', amount: money(100), period: 'weekly' } });
  // @ts-expect-error a fact the calculator does not take
  await client.calculate('au.income-tax.annual', { taxableIncome: money(100), bonus: money(1) });
  // @ts-expect-error a calculator the service does not have
  await client.calculate('au.pay.nothing', { taxableIncome: money(100) });
  // @ts-expect-error a help mode that does not exist
  await client.calculate('au.income-tax.annual', { taxableIncome: money(100) }, { help: 'loud' });
}

export async function reportsFollowTheCalculator(): Promise<void> {
  const annual = await client.calculate('au.income-tax.annual', { taxableIncome: money(100) });
  if (annual.ok) {
    const liability: number = annual.report.liability.cents;
    void liability;
    // @ts-expect-error the annual report has no net pay
    void annual.report.netPay;
  }
  const ledger = await client.calculate('au.pay.withholdings', { grossPay: { _tag: 'GrossPay', amount: money(100), period: 'weekly' }, taxFreeThresholdClaimed: false });
  if (ledger.ok) {
    const tag: 'PayWithholdingsLedger' = ledger.report._tag;
    void tag;
  }
}

/** Errors are a closed union on `_tag`: a switch over every tag type-checks as exhaustive. */
export function describe(error: CalculateError): string {
  switch (error._tag) {
    case 'CalculatorInputDecodeError':
      return error.issues.map((issue) => issue.path.join('.')).join(', ');
    case 'UnsupportedCalculatorError':
      return error.requestedCalculator;
    case 'UnsupportedCalculatorContextError':
    case 'CalculationError':
    case 'RouteNotFound':
    case 'MethodNotAllowed':
    case 'CalculatorRequestBodyTimedOut':
    case 'CalculatorRequestBodyTooLarge':
    case 'CalculatorAdmissionUnavailable':
    case 'CalculatorCapacityExceeded':
    case 'CalculatorOperationTimedOut':
    case 'ClientAborted':
    case 'ClientNetworkError':
      return error.message;
    case 'CalculatorRateLimited':
      return error.retry;
    case 'ClientTimeout':
      return String(error.timeoutMs);
    case 'ClientUnexpectedResponse':
      return String(error.status);
    default: {
      const unreachable: never = error;
      return unreachable;
    }
  }
}

// No `any` in the public types: each of these would be `true` if one were.
type IsAny<T> = 0 extends 1 & T ? true : false;
type AnyIn<T> = IsAny<T> extends true ? true : T extends object ? { [K in keyof T]-?: IsAny<T[K]> }[keyof T] extends false ? false : true : false;
const noAny: [
  AnyIn<FactsOf<'au.pay.take-home'>>,
  AnyIn<FactsOf<'au.income-tax.annual'>>,
  AnyIn<ReportOf<'au.pay.take-home'>>,
  AnyIn<ReportOf<'au.income-tax.annual'>>,
  AnyIn<Report>,
  AnyIn<ServiceError>,
  AnyIn<CalculateError>,
  AnyIn<CalculateResult<'au.pay.withholdings'>>,
  IsAny<Parameters<typeof client.calculate>[2]>,
] = [false, false, false, false, false, false, false, false, false];
void noAny;
