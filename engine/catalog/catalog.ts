import type { CalculatorPlan } from '../run/plan.ts';

/** The calculators a service offers, in catalog order, found by id and context. */
export interface Catalog {
  readonly plans: readonly CalculatorPlan[];
  /** Plans with this calculator id, whatever their context. */
  withId(calculatorId: string): CalculatorPlan[];
  /** The plan for an id in a context; a missing part of the context matches any. */
  find(calculatorId: string, context?: { jurisdiction?: string | null; taxYear?: string | null }): CalculatorPlan | undefined;
}

/** Orders plans by their calculators' catalogOrder, then as loaded. */
export function createCatalog(plans: readonly CalculatorPlan[]): Catalog {
  const ordered = plans
    .map((plan, index) => ({ plan, index }))
    .sort((a, b) => (a.plan.def.catalogOrder ?? Infinity) - (b.plan.def.catalogOrder ?? Infinity) || a.index - b.index)
    .map(({ plan }) => plan);
  const matches = (plan: CalculatorPlan, context?: { jurisdiction?: string | null; taxYear?: string | null }) =>
    (context?.jurisdiction == null || plan.context.jurisdiction === context.jurisdiction) &&
    (context?.taxYear == null || plan.context.taxYear === context.taxYear);
  return {
    plans: ordered,
    withId: (calculatorId) => ordered.filter((plan) => plan.def.id === calculatorId),
    find: (calculatorId, context) => ordered.find((plan) => plan.def.id === calculatorId && matches(plan, context)),
  };
}
