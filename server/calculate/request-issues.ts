import { issuesFromErrors, type InputIssue } from '../../engine/index.ts';
import type { RequestedContext } from '../contract/error-schemas.ts';
import type { Services } from '../services.ts';

/**
 * Checks the calculate body's envelope against the CalculatorRunRequest schema. A jurisdiction or tax
 * year that is well formed but not served is not a decode problem: it is returned as the requested
 * context, so that the caller can answer UnsupportedCalculatorContextError.
 */
export function issuesOfRequest(services: Services, body: unknown): { issues: InputIssue[]; context: RequestedContext } {
  const context: RequestedContext = {};
  if (services.validateRunRequest(body)) {
    const { jurisdiction, taxYear } = body as RequestedContext;
    if (jurisdiction != null) context.jurisdiction = jurisdiction;
    if (taxYear != null) context.taxYear = taxYear;
    return { issues: [], context };
  }
  const errors = services.validateRunRequest.errors ?? [];
  const record = body as Record<string, unknown>;
  const kept = errors.filter((error) => {
    for (const field of ['jurisdiction', 'taxYear'] as const) {
      if (error.instancePath === `/${field}` && error.keyword === 'enum' && typeof record[field] === 'string' && services.wellFormed[field](record[field])) {
        context[field] = record[field] as string;
        return false;
      }
    }
    return true;
  });
  return { issues: issuesFromErrors(kept), context };
}
