import { isCalendarDate } from '../run/decode.ts';
import type { CalculatorPlan } from '../run/plan.ts';

/** The calculators a service offers, in catalog order, found by id and context. */
export interface Catalog {
  readonly plans: readonly CalculatorPlan[];
  /** Plans with this calculator id, whatever their context. */
  withId(calculatorId: string): CalculatorPlan[];
  /** The plan for an id in a context; a missing part of the context matches any. */
  find(calculatorId: string, context?: { jurisdiction?: string | null; taxYear?: string | null }): CalculatorPlan | undefined;
  /** For a calculator that chooses its values by a date fact: the plan whose tax year holds the day. */
  onDate(calculatorId: string, jurisdiction: string | null | undefined, day: string): CalculatorPlan | undefined;
}

/**
 * Orders plans by their calculators' catalogOrder, then as first loaded; one calculator's plans for
 * several contexts by jurisdiction then tax year, whatever the folders of their packs are called.
 */
export function createCatalog(plans: readonly CalculatorPlan[]): Catalog {
  const firstLoaded = new Map<string, number>();
  plans.forEach((plan, index) => firstLoaded.has(plan.def.id) || firstLoaded.set(plan.def.id, index));
  const ordered = [...plans].sort(
    (a, b) =>
      (a.def.catalogOrder ?? Infinity) - (b.def.catalogOrder ?? Infinity) ||
      firstLoaded.get(a.def.id)! - firstLoaded.get(b.def.id)! ||
      a.context.jurisdiction.localeCompare(b.context.jurisdiction) ||
      a.context.taxYear.localeCompare(b.context.taxYear),
  );
  const matches = (plan: CalculatorPlan, context?: { jurisdiction?: string | null; taxYear?: string | null }) =>
    (context?.jurisdiction == null || plan.context.jurisdiction === context.jurisdiction) &&
    (context?.taxYear == null || plan.context.taxYear === context.taxYear);
  return {
    plans: ordered,
    withId: (calculatorId) => ordered.filter((plan) => plan.def.id === calculatorId),
    find: (calculatorId, context) => ordered.find((plan) => plan.def.id === calculatorId && matches(plan, context)),
    onDate: (calculatorId, jurisdiction, day) =>
      ordered.find((plan) => plan.def.id === calculatorId && plan.byDate && matches(plan, { jurisdiction }) && plan.pack.taxYear.from <= day && day < plan.pack.taxYear.toExclusive),
  };
}

/**
 * The day a calculation is for, when its calculator chooses parameter values by a date fact and the
 * facts give that fact as a calendar date; undefined otherwise (the facts' own checks then say why).
 */
export function dayOfFacts(plan: CalculatorPlan, facts: unknown): string | undefined {
  if (!plan.byDate || typeof facts !== 'object' || facts === null) return undefined;
  const day = (facts as Record<string, unknown>)[plan.byDate.factId];
  return typeof day === 'string' && isCalendarDate(day) ? day : undefined;
}
