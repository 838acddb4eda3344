import { computeFacts, runCalculator, type CalculatorPlan } from '../../engine/index.ts';
import { prepareDirectAnnual, prepareDirectTakeHome, type AnnualFacts, type AnnualFigures, type DirectAnnual, type DirectTakeHome, type PayFacts, type TakeHomeFigures } from './direct.ts';
import { annualInputs, takeHomeInputs } from './inputs.ts';

/** What one measured loop does to the i-th input. Returns a number so the work cannot be dropped. */
export interface Scenario {
  id: string;
  calculator: 'take-home' | 'annual' | 'payroll';
  /** What is measured, for the table. */
  label: string;
  run: (index: number) => number;
}

type Money = { cents: number };
/** The parts of the take-home and annual reports that the benchmarks read back. */
type Ledger = { components: Array<{ id: string; amount: Money }> };
type Report = {
  taxablePay: Money; withholdings: Ledger; withholdingsTotal: Money; netPay: Money;
  ledger: Ledger; rawLiability: Money; liability: Money;
};

function componentCents(ledger: Ledger, id: string): number {
  const component = ledger.components.find((entry) => entry.id === id);
  if (!component) throw new Error(`the report has no ${id} component`);
  return component.amount.cents;
}

function reportJson(plan: CalculatorPlan, facts: unknown): Buffer {
  const outcome = runCalculator(plan, facts);
  if (!outcome.ok) throw new Error(`${plan.def.id} failed: ${JSON.stringify(outcome)}`);
  return outcome.json;
}

function report(plan: CalculatorPlan, facts: unknown): Report {
  return JSON.parse(reportJson(plan, facts).toString()) as Report;
}

function factsOf(plan: CalculatorPlan, facts: unknown): Map<string, unknown> {
  const outcome = computeFacts(plan, facts);
  if (!outcome.ok) throw new Error(`${plan.def.id} failed: ${JSON.stringify(outcome)}`);
  return outcome.facts;
}

export interface BenchSetup {
  takeHome: CalculatorPlan;
  annual: CalculatorPlan;
  payInputs: PayFacts[];
  annualInputs: AnnualFacts[];
  directTakeHome: DirectTakeHome;
  directAnnual: DirectAnnual;
}

/** Inputs (a power of two of each) and direct computations for the two calculators. */
export function benchSetup(takeHome: CalculatorPlan, annual: CalculatorPlan, count = 4096): BenchSetup {
  if ((count & (count - 1)) !== 0) throw new Error('the input count must be a power of two');
  return {
    takeHome,
    annual,
    payInputs: takeHomeInputs(takeHome, count),
    annualInputs: annualInputs(annual, count),
    directTakeHome: prepareDirectTakeHome(takeHome),
    directAnnual: prepareDirectAnnual(annual),
  };
}

/** Every measured loop, from the full report down to the direct computation. */
export function scenarios(setup: BenchSetup): Scenario[] {
  const { takeHome, annual, payInputs, annualInputs: yearly, directTakeHome, directAnnual } = setup;
  const payMask = payInputs.length - 1;
  const yearMask = yearly.length - 1;
  return [
    { id: 'take-home.report', calculator: 'take-home', label: 'runCalculator: report with full trace (as served)', run: (i) => reportJson(takeHome, payInputs[i & payMask]).length },
    { id: 'take-home.facts', calculator: 'take-home', label: 'computeFacts: no report, no trace', run: (i) => (factsOf(takeHome, payInputs[i & payMask]).get('netPay') as Money).cents },
    { id: 'take-home.validate', calculator: 'take-home', label: 'plan.factIssues only (Ajv)', run: (i) => (takeHome.factIssues(payInputs[i & payMask]).length === 0 ? 1 : 0) },
    { id: 'take-home.direct', calculator: 'take-home', label: 'direct decimal.js computation', run: (i) => directTakeHome.compute(payInputs[i & payMask]!).netPay },
    { id: 'annual.report', calculator: 'annual', label: 'runCalculator: report with full trace (as served)', run: (i) => reportJson(annual, yearly[i & yearMask]).length },
    { id: 'annual.facts', calculator: 'annual', label: 'computeFacts: no report, no trace', run: (i) => (factsOf(annual, yearly[i & yearMask]).get('liability') as Money).cents },
    { id: 'annual.validate', calculator: 'annual', label: 'plan.factIssues only (Ajv)', run: (i) => (annual.factIssues(yearly[i & yearMask]).length === 0 ? 1 : 0) },
    { id: 'annual.direct', calculator: 'annual', label: 'direct decimal.js computation', run: (i) => directAnnual.compute(yearly[i & yearMask]!).liability },
  ];
}

/** The engine's figures for a take-home input: every derived fact, and the same figures read from the report. */
export function engineTakeHomeFigures(plan: CalculatorPlan, facts: PayFacts): { facts: TakeHomeFigures; report: TakeHomeFigures } {
  const computed = factsOf(plan, facts);
  const cents = (id: string) => (computed.get(id) as Money).cents;
  const served = report(plan, facts);
  return {
    facts: { taxablePay: cents('taxablePay'), paygWithholding: cents('paygWithholding'), withholdingsTotal: cents('withholdingsTotal'), netPay: cents('netPay') },
    report: {
      taxablePay: served.taxablePay.cents,
      paygWithholding: componentCents(served.withholdings, 'payg-withholding'),
      withholdingsTotal: served.withholdingsTotal.cents,
      netPay: served.netPay.cents,
    },
  };
}

/** The engine's figures for an annual input, from its facts and from its report's ledger. */
export function engineAnnualFigures(plan: CalculatorPlan, facts: AnnualFacts): { facts: AnnualFigures; report: AnnualFigures } {
  const computed = factsOf(plan, facts);
  const cents = (id: string) => (computed.get(id) as Money).cents;
  const served = report(plan, facts);
  const component = (id: string) => componentCents(served.ledger, id);
  return {
    facts: { incomeTax: cents('incomeTax'), lowIncomeTaxOffset: cents('lowIncomeTaxOffset'), medicareLevy: cents('medicareLevy'), rawLiability: cents('rawLiability'), liability: cents('liability') },
    report: {
      incomeTax: component('income-tax'),
      lowIncomeTaxOffset: component('low-income-tax-offset'),
      medicareLevy: component('medicare-levy'),
      rawLiability: served.rawLiability.cents,
      liability: served.liability.cents,
    },
  };
}

/** Inputs where the direct computation and the engine (facts or report) disagree, described. */
export function disagreements(setup: BenchSetup, limit = Infinity): string[] {
  const out: string[] = [];
  const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
  for (const facts of setup.payInputs.slice(0, limit)) {
    const direct = setup.directTakeHome.compute(facts);
    const engine = engineTakeHomeFigures(setup.takeHome, facts);
    if (!same(direct, engine.facts) || !same(direct, engine.report)) out.push(`take-home ${JSON.stringify(facts)}: direct ${JSON.stringify(direct)}, engine ${JSON.stringify(engine)}`);
  }
  for (const facts of setup.annualInputs.slice(0, limit)) {
    const direct = setup.directAnnual.compute(facts);
    const engine = engineAnnualFigures(setup.annual, facts);
    if (!same(direct, engine.facts) || !same(direct, engine.report)) out.push(`annual ${JSON.stringify(facts)}: direct ${JSON.stringify(direct)}, engine ${JSON.stringify(engine)}`);
  }
  return out;
}

/** How the inputs spread over periods, scales, rows and Medicare zones. */
export function coverage(setup: BenchSetup): { pay: Map<string, number>; annual: Map<string, number>; missing: string[] } {
  const pay = new Map<string, number>();
  const annual = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const facts of setup.payInputs) {
    const { period, scale, row } = setup.directTakeHome.classify(facts);
    bump(pay, `period ${period}`);
    bump(pay, `scale ${scale} row ${row + 1}`);
  }
  for (const facts of setup.annualInputs) {
    const { taxRow, offsetRow, medicare } = setup.directAnnual.classify(facts);
    bump(annual, `tax row ${taxRow + 1}`);
    bump(annual, `offset row ${offsetRow + 1}`);
    bump(annual, `medicare ${medicare}`);
  }
  const expected = [
    ...['weekly', 'fortnightly', 'monthly'].map((period) => ['pay', `period ${period}`] as const),
    ...Array.from({ length: setup.directTakeHome.rowCounts.scale1 }, (_, row) => ['pay', `scale 1 row ${row + 1}`] as const),
    ...Array.from({ length: setup.directTakeHome.rowCounts.scale2 }, (_, row) => ['pay', `scale 2 row ${row + 1}`] as const),
    ...Array.from({ length: setup.directAnnual.rowCounts.tax }, (_, row) => ['annual', `tax row ${row + 1}`] as const),
    ...Array.from({ length: setup.directAnnual.rowCounts.offset }, (_, row) => ['annual', `offset row ${row + 1}`] as const),
    ...['nil', 'shade-in', 'full'].map((zone) => ['annual', `medicare ${zone}`] as const),
  ];
  const missing = expected.filter(([which, key]) => !(which === 'pay' ? pay : annual).has(key)).map(([which, key]) => `${which}: ${key}`);
  return { pay, annual, missing };
}
