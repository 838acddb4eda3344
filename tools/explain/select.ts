import { dayOfFacts, suggest, type Catalog, type CalculatorPlan } from '../../engine/index.ts';

/** The plan to run, or why there is none, with the nearest names a reviewer may have meant. */
export type Selected = { ok: true; plan: CalculatorPlan } | { ok: false; problems: string[] };

/**
 * Finds a calculator as the API does: by id, then by context, where a missing part of the context
 * (`AU`, or `/` and a tax year) matches any. `AU/` and a tax year names both parts. With no tax year
 * named, a calculator that chooses its values by a date fact takes the year of the date the facts
 * give; any other, the default tax year (the serving file's) when the calculator has it, else the
 * first in catalog order.
 */
export function selectPlan(catalog: Catalog, calculatorId: string, context: string | undefined, defaultTaxYear?: string, facts?: unknown): Selected {
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
  const wanted = { jurisdiction: jurisdiction ?? null, taxYear: taxYear ?? null };
  const day = wanted.taxYear === null ? dayOfFacts(candidates[0]!, facts) : undefined;
  if (day !== undefined) {
    const dated = catalog.onDate(calculatorId, wanted.jurisdiction, day);
    if (dated) return { ok: true, plan: dated };
    const contexts = candidates.map((candidate) => `${candidate.context.jurisdiction}/${candidate.context.taxYear}`);
    return { ok: false, problems: [`\`${calculatorId}\` has no tax year holding the ${candidates[0]!.byDate!.factId} of the facts, ${day}`, `contexts: ${contexts.join(', ')}`] };
  }
  const plan = (wanted.taxYear === null && defaultTaxYear ? catalog.find(calculatorId, { ...wanted, taxYear: defaultTaxYear }) : undefined) ?? catalog.find(calculatorId, wanted);
  if (plan) return { ok: true, plan };
  const contexts = candidates.map((candidate) => `${candidate.context.jurisdiction}/${candidate.context.taxYear}`);
  const nearest = nearestContext(candidates, wanted) ?? suggest(context ?? '', contexts);
  return {
    ok: false,
    problems: [`\`${calculatorId}\` is not available for ${context}${nearest ? `; did you mean ${nearest}?` : ''}`, `contexts: ${contexts.join(', ')}`],
  };
}

/**
 * The context nearest in time to the one asked for: in its jurisdiction (or any, when none is named
 * or it has none), the tax year whose first calendar year is closest; the later one on a tie.
 */
function nearestContext(candidates: readonly CalculatorPlan[], wanted: { jurisdiction: string | null; taxYear: string | null }): string | undefined {
  const start = (taxYear: string) => Number(/^(\d{4})-\d{2}$/.exec(taxYear)?.[1] ?? Number.NaN);
  const asked = wanted.taxYear === null ? Number.NaN : start(wanted.taxYear);
  if (Number.isNaN(asked)) return undefined;
  const sameJurisdiction = candidates.filter((candidate) => candidate.context.jurisdiction === wanted.jurisdiction);
  const pool = (sameJurisdiction.length > 0 ? sameJurisdiction : candidates).filter((candidate) => !Number.isNaN(start(candidate.context.taxYear)));
  const best = [...pool].sort((a, b) => Math.abs(start(a.context.taxYear) - asked) - Math.abs(start(b.context.taxYear) - asked) || start(b.context.taxYear) - start(a.context.taxYear))[0];
  return best && `${best.context.jurisdiction}/${best.context.taxYear}`;
}

/**
 * The facts to run in another context: for a calculator that chooses its values by a date fact, a
 * date outside the other plan's tax year moves by whole years into it (the same payment, paid on the
 * same day of that year; 29 February becomes the 28th). Other facts are run as they are.
 */
export function factsFor(plan: CalculatorPlan, facts: unknown): unknown {
  const day = dayOfFacts(plan, facts);
  if (day === undefined) return facts;
  const { from, toExclusive } = plan.pack.taxYear;
  if (from <= day && day < toExclusive) return facts;
  const monthDay = day.slice(4) === '-02-29' ? '-02-28' : day.slice(4);
  const start = Number(from.slice(0, 4));
  const moved = [start, start + 1].map((year) => `${String(year).padStart(4, '0')}${monthDay}`).find((candidate) => from <= candidate && candidate < toExclusive);
  return moved === undefined ? facts : { ...(facts as Record<string, unknown>), [plan.byDate!.factId]: moved };
}

/** A payment date given to --against instead of a context: the same facts, paid on that day. */
export function isDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text);
}
