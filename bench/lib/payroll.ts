import { runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import type { PayFacts } from './direct.ts';
import type { Scenario } from './scenarios.ts';

export const PAYROLL = 'au.payroll.withholding';

/** The declarations the payroll bench cycles through: every scale, with and without a study loan. */
const DECLARATIONS = [
  { residency: 'resident', tfnProvided: true, taxFreeThresholdClaimed: true, medicareLevyExemption: 'none' },
  { residency: 'resident', tfnProvided: true, taxFreeThresholdClaimed: false, medicareLevyExemption: 'none' },
  { residency: 'foreign-resident', tfnProvided: true, taxFreeThresholdClaimed: false, medicareLevyExemption: 'none' },
  { residency: 'resident', tfnProvided: false, taxFreeThresholdClaimed: true, medicareLevyExemption: 'none' },
  { residency: 'resident', tfnProvided: true, taxFreeThresholdClaimed: true, medicareLevyExemption: 'full' },
  { residency: 'resident', tfnProvided: true, taxFreeThresholdClaimed: true, medicareLevyExemption: 'half' },
] as const;

/**
 * Payroll facts for each take-home input: its payment, one declaration after another, with and
 * without a study loan, paid on the first day of each stretch of the year between changes of the
 * plan's values (so every edition of every table is read).
 */
export function payrollInputs(plan: CalculatorPlan, payInputs: readonly PayFacts[]): Record<string, unknown>[] {
  const days = (plan.byDate?.parts ?? [plan]).map((part) => part.period.from);
  return payInputs.map((pay, index) => ({
    grossPay: pay.grossPay,
    paymentDate: days[index % days.length],
    ...DECLARATIONS[Math.floor(index / days.length) % DECLARATIONS.length],
    studyLoan: Math.floor(index / (days.length * DECLARATIONS.length)) % 2 === 1,
  }));
}

/** The payroll calculator's traced calculation, as served, over the inputs in turn. */
export function payrollScenario(plan: CalculatorPlan, inputs: readonly Record<string, unknown>[]): Scenario {
  const mask = inputs.length - 1;
  return {
    id: 'payroll.report',
    calculator: 'payroll',
    label: 'runCalculator: report with full trace (as served)',
    run: (i) => {
      const outcome = runCalculator(plan, inputs[i & mask]);
      if (!outcome.ok) throw new Error(`${plan.def.id} failed: ${JSON.stringify(outcome)}`);
      return outcome.json.length;
    },
  };
}
