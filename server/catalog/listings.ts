import type { AppContext } from '../http/context.ts';
import type { ListFilter } from './metadata.ts';
import type { MetadataShape } from '../contract/metadata-schemas.ts';
import { checkedQuery } from '../http/query.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { sendJson, withinBudget } from '../http/respond.ts';
import type { Services } from '../services.ts';

/** Health and the listing operations: jurisdictions, tax years, calculators, facts and rules. */
export function catalogHandlers(services: Services): OperationHandlers {
  const budget = services.config.calcTimeoutMs;
  const filterOf = (operationId: string) => {
    const check = services.queryChecker(operationId);
    return (ctx: AppContext): ListFilter => {
      const values = checkedQuery(check(ctx.query));
      return {
        ...(values.jurisdiction !== undefined ? { jurisdiction: values.jurisdiction } : {}),
        ...(values.taxYear !== undefined ? { taxYear: values.taxYear } : {}),
        ...(values.calculator !== undefined ? { calculator: values.calculator } : {}),
      };
    };
  };
  const healthQuery = services.queryChecker('getHealth');
  const noQuery = services.queryChecker('listJurisdictions');
  const taxYears = filterOf('listTaxYears');
  const calculators = filterOf('listCalculators');
  const facts = filterOf('listFacts');
  const rules = filterOf('listRules');
  const health = JSON.stringify({ service: 'tax-rules-api', status: 'ok' } satisfies MetadataShape<'Health'>);

  return {
    getHealth: (ctx: AppContext) => {
      checkedQuery(healthQuery(ctx.query));
      sendJson(ctx, health);
    },
    listJurisdictions: async (ctx: AppContext) => {
      checkedQuery(noQuery(ctx.query));
      sendJson(ctx, await withinBudget(budget, () => services.metadata.jurisdictions()));
    },
    listTaxYears: async (ctx: AppContext) => {
      const filter = taxYears(ctx);
      sendJson(ctx, await withinBudget(budget, () => services.metadata.taxYears(filter)));
    },
    listCalculators: async (ctx: AppContext) => {
      const filter = calculators(ctx);
      sendJson(ctx, await withinBudget(budget, () => services.metadata.calculators(filter)));
    },
    listFacts: async (ctx: AppContext) => {
      const filter = facts(ctx);
      sendJson(ctx, await withinBudget(budget, () => services.metadata.facts(filter)));
    },
    listRules: async (ctx: AppContext) => {
      const filter = rules(ctx);
      sendJson(ctx, await withinBudget(budget, () => services.metadata.rules(filter)));
    },
  };
}
