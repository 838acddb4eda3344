import { dayOfFacts, factHelp, type CalculatorPlan, type HelpMode, type InputIssue } from '../../engine/index.ts';
import { ApiProblem, requestedCalculatorLabel } from '../contract/errors.ts';
import type { AppContext } from '../http/context.ts';
import { queryIssues, type QueryProblem } from '../http/query.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { sendJson, withinBudget } from '../http/respond.ts';
import type { Services } from '../services.ts';
import type { RequestedContext } from '../contract/error-schemas.ts';

export { queryIssues } from '../http/query.ts';

/**
 * Finds the calculator a request names, in the order of checks the contract sets: the calculator
 * must exist; then its query must decode; then the context must be one it serves (with no tax year
 * named, the default tax year; or, for a calculator whose values are chosen by a date fact, the
 * tax year that holds the date the facts give).
 */
export function resolveCalculator(
  services: Services,
  calculatorId: string,
  query: { values: Record<string, string | undefined>; problems: QueryProblem[] },
  extraIssues: InputIssue[] = [],
  context: RequestedContext = {},
  facts?: unknown,
): { plan: CalculatorPlan; help: HelpMode } {
  const candidates = services.catalog.withId(calculatorId);
  if (candidates.length === 0) {
    throw new ApiProblem({ _tag: 'UnsupportedCalculatorError', requestedCalculator: requestedCalculatorLabel(calculatorId) });
  }
  const help = (query.values.help as HelpMode | undefined) ?? 'errors';
  const issues = [...queryIssues(query.problems), ...extraIssues];
  if (issues.length > 0) {
    throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues, calculatorId, help: factHelp(candidates[0]!, help) });
  }
  const wanted = {
    jurisdiction: context.jurisdiction ?? query.values.jurisdiction ?? null,
    taxYear: context.taxYear ?? query.values.taxYear ?? null,
  };
  const day = wanted.taxYear === null && facts !== undefined ? dayOfFacts(candidates[0]!, facts) : undefined;
  if (day !== undefined) {
    const plan = services.catalog.onDate(calculatorId, wanted.jurisdiction, day);
    if (plan) return { plan, help };
    const echoed: RequestedContext = wanted.jurisdiction === null ? {} : { jurisdiction: wanted.jurisdiction };
    throw new ApiProblem({ _tag: 'UnsupportedCalculatorContextError', requestedCalculator: calculatorId, context: echoed, dateFact: candidates[0]!.byDate!.factId });
  }
  // A request that names no tax year gets the default one; the error still echoes only what was asked.
  const plan = services.catalog.find(calculatorId, { ...wanted, taxYear: wanted.taxYear ?? services.defaultTaxYear });
  if (!plan) {
    const echoed: RequestedContext = {};
    if (wanted.jurisdiction !== null) echoed.jurisdiction = wanted.jurisdiction;
    if (wanted.taxYear !== null) echoed.taxYear = wanted.taxYear;
    throw new ApiProblem({ _tag: 'UnsupportedCalculatorContextError', requestedCalculator: calculatorId, context: echoed });
  }
  return { plan, help };
}

/** Calculator detail, schema and graph. */
export function calculatorHandlers(services: Services): OperationHandlers {
  const budget = services.config.calcTimeoutMs;
  const detail = services.queryChecker('getCalculator');
  const schema = services.queryChecker('getCalculatorSchema');
  const graph = services.queryChecker('getCalculatorGraph');

  return {
    getCalculator: async (ctx: AppContext) => {
      const { plan } = resolveCalculator(services, ctx.params.calculatorId!, detail(ctx.query));
      sendJson(ctx, await withinBudget(budget, () => services.metadata.calculator(plan)));
    },
    getCalculatorSchema: async (ctx: AppContext) => {
      const { plan, help } = resolveCalculator(services, ctx.params.calculatorId!, schema(ctx.query));
      sendJson(ctx, await withinBudget(budget, () => services.metadata.schema(plan, help)));
    },
    getCalculatorGraph: async (ctx: AppContext) => {
      const { plan } = resolveCalculator(services, ctx.params.calculatorId!, graph(ctx.query));
      sendJson(ctx, await withinBudget(budget, () => services.metadata.graph(plan)));
    },
  };
}
