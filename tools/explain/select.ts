import { suggest, type Catalog, type CalculatorPlan } from '../../engine/index.ts';

/** The plan to run, or why there is none, with the nearest names a reviewer may have meant. */
export type Selected = { ok: true; plan: CalculatorPlan } | { ok: false; problems: string[] };

/**
 * Finds a calculator as the API does: by id, then by context, where a missing part of the context
 * (`AU`, `/2025-26`) matches any. `AU/2025-26` names both parts.
 */
export function selectPlan(catalog: Catalog, calculatorId: string, context: string | undefined): Selected {
  const candidates = catalog.withId(calculatorId);
  if (candidates.length === 0) {
    const known = [...new Set(catalog.plans.map((plan) => plan.def.id))];
    const nearest = suggest(calculatorId, known);
    return {
      ok: false,
      problems: [`unknown calculator \`${calculatorId}\`${nearest ? `; did you mean \`${nearest}\`?` : ''}`, `calculators: ${known.join(', ') || '(none)'}`],
    };
  }
  const [jurisdiction, taxYear] = (context ?? '').split('/', 2).map((part) => part.trim() || null);
  const plan = catalog.find(calculatorId, { jurisdiction: jurisdiction ?? null, taxYear: taxYear ?? null });
  if (plan) return { ok: true, plan };
  const contexts = candidates.map((candidate) => `${candidate.context.jurisdiction}/${candidate.context.taxYear}`);
  const nearest = suggest(context ?? '', contexts);
  return {
    ok: false,
    problems: [`\`${calculatorId}\` is not available for ${context}${nearest ? `; did you mean ${nearest}?` : ''}`, `contexts: ${contexts.join(', ')}`],
  };
}
