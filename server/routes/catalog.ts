import type Router from '@koa/router';
import { ApiProblem } from '../errors.ts';
import type { AppContext, RequestState } from '../context.ts';
import type { ListFilter } from '../metadata.ts';
import { queryIssues } from './calculators.ts';
import { sendJson, withinBudget } from './respond.ts';
import type { Services } from '../services.ts';

/** Health and the listing routes: jurisdictions, tax years, calculators, facts and rules. */
export function registerCatalogRoutes(router: Router<RequestState>, services: Services): void {
  const budget = services.config.calcTimeoutMs;
  const filterOf = (operationId: string) => {
    const check = services.queryChecker(operationId);
    return (ctx: AppContext): ListFilter => {
      const { values, problems } = check(ctx.query);
      if (problems.length > 0) throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: queryIssues(problems), calculatorId: null });
      return {
        ...(values.jurisdiction !== undefined ? { jurisdiction: values.jurisdiction } : {}),
        ...(values.taxYear !== undefined ? { taxYear: values.taxYear } : {}),
        ...(values.calculator !== undefined ? { calculator: values.calculator } : {}),
      };
    };
  };
  const noQuery = services.queryChecker('listJurisdictions');
  const taxYears = filterOf('listTaxYears');
  const calculators = filterOf('listCalculators');
  const facts = filterOf('listFacts');
  const rules = filterOf('listRules');
  const health = JSON.stringify({ service: 'tax-rules-api', status: 'ok' });

  router.get('/api/health', (ctx: AppContext) => sendJson(ctx, health));
  router.get('/api/v1/jurisdictions', async (ctx: AppContext) => {
    const { problems } = noQuery(ctx.query);
    if (problems.length > 0) throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: queryIssues(problems), calculatorId: null });
    sendJson(ctx, await withinBudget(budget, () => services.metadata.jurisdictions()));
  });
  router.get('/api/v1/tax-years', async (ctx: AppContext) => {
    const filter = taxYears(ctx);
    sendJson(ctx, await withinBudget(budget, () => services.metadata.taxYears(filter)));
  });
  router.get('/api/v1/calculators', async (ctx: AppContext) => {
    const filter = calculators(ctx);
    sendJson(ctx, await withinBudget(budget, () => services.metadata.calculators(filter)));
  });
  router.get('/api/v1/facts', async (ctx: AppContext) => {
    const filter = facts(ctx);
    sendJson(ctx, await withinBudget(budget, () => services.metadata.facts(filter)));
  });
  router.get('/api/v1/rules', async (ctx: AppContext) => {
    const filter = rules(ctx);
    sendJson(ctx, await withinBudget(budget, () => services.metadata.rules(filter)));
  });
}
