import type { IncomingMessage, ServerResponse } from 'node:http';
import typeis from 'type-is';
import { factHelp, type CalculatorPlan, type HelpMode, type InputIssue } from '../../engine/index.ts';
import { BodyReadFailure, readBody } from '../http/body.ts';
import { ApiProblem } from '../contract/errors.ts';
import { requestClientKey } from '../limits/client.ts';
import type { ParsedQuery, QueryProblem } from '../http/query.ts';
import { issuesOfRequest } from './request-issues.ts';
import { resolveCalculator } from '../catalog/calculators.ts';
import type { Services } from '../services.ts';
import type { CalculationResult } from './calculation.ts';
import type { CalculationOutcomeLabel } from '../process/metrics.ts';
import type { RequestedContext } from '../contract/error-schemas.ts';
import type { AppContext } from '../http/context.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { JSON_CONTENT_TYPE } from '../http/respond.ts';

/** A calculate request as its route hands it over: the exchange, the calculator named in the path, the query. */
export interface CalculateExchange {
  request: IncomingMessage;
  response: ServerResponse;
  calculatorId: string;
  query: ParsedQuery;
}

/** The calculate operation, answered in the request frame like every other. */
export function calculateHandlers(services: Services): OperationHandlers {
  const calculate = calculateHandler(services);
  return {
    runCalculator: async (ctx: AppContext) => {
      const report = await calculate({ request: ctx.req, response: ctx.res, calculatorId: ctx.params.calculatorId!, query: ctx.query as ParsedQuery });
      // No report: the client went away before its body arrived, and is owed nothing.
      if (report === undefined) return;
      ctx.status = 200;
      ctx.set('content-type', JSON_CONTENT_TYPE);
      ctx.body = report;
    },
  };
}

/**
 * POST calculate: body limits, then calculator, shape and context, then a calculation place (none
 * while the service is saturated), then admission, then the calculation, all within one budget.
 * Resolves to the report's bytes for a 200, or to undefined when the client went away before its
 * body was read (nothing to answer); every other answer is thrown as an ApiProblem.
 */
export function calculateHandler(services: Services): (exchange: CalculateExchange) => Promise<Buffer | undefined> {
  const { config } = services;
  const checkQuery = services.queryChecker('runCalculator');

  return async ({ request, response, calculatorId, query: rawQuery }) => {
    // The budget runs from the request's arrival: time spent on the body, waiting for admission or
    // behind other work counts, so an answer never comes later than the budget says.
    const deadline = performance.now() + config.calcTimeoutMs;
    let raw: Buffer;
    try {
      raw = await readBody(request, config.bodyLimitBytes, config.bodyTimeoutMs);
    } catch (error) {
      if (!(error instanceof BodyReadFailure)) throw error;
      if (error.reason === 'client-gone') {
        request.socket.destroy();
        return undefined;
      }
      // The rest of the body is never read: answer, then close the connection.
      response.setHeader('connection', 'close');
      response.once('finish', () => request.socket.destroySoon());
      throw new ApiProblem({ _tag: error.reason === 'too-large' ? 'CalculatorRequestBodyTooLarge' : 'CalculatorRequestBodyTimedOut' });
    }

    const { body, issues, context } = decodeEnvelope(services, request, raw);
    const checked = checkCalculation(services, calculatorId, checkQuery(rawQuery), body, issues, context);
    return runCalculation(services, checked, requestClientKey(request, config.trustProxyHops), deadline);
  };
}

/**
 * Runs a checked calculation for a client by `deadline` (a performance.now() time): a calculation
 * place (none while the service is saturated), then admission, then the calculation. Resolves to
 * the report's bytes; every other outcome is thrown as its ApiProblem. Calculate and the MCP
 * calculators both run here, so they answer alike and count against the same limits.
 */
export async function runCalculation(services: Services, { plan, help, facts }: CheckedCalculation, client: string, deadline: number): Promise<Buffer> {
  const calculator = plan.def.id;
  if (performance.now() >= deadline) {
    services.metrics.countCalculation(calculator, 'timeout');
    throw new ApiProblem({ _tag: 'CalculatorOperationTimedOut' });
  }
  // Shed load instead of queueing it: saturated, or with every place taken (places are held from
  // here, so they also count calculations waiting for the admission verdict), refuse at once.
  const place = services.load.saturated() ? undefined : services.runner.tryAcquire();
  if (!place) {
    services.metrics.countCalculation(calculator, 'busy');
    throw new ApiProblem({ _tag: 'CalculatorCapacityExceeded' });
  }
  const admission = await services.rateLimiter.admit(client);
  if (admission !== 1) {
    place.release();
    services.metrics.countCalculation(calculator, admission === 0 ? 'rate-limited' : 'unavailable');
    throw new ApiProblem({ _tag: admission === 0 ? 'CalculatorRateLimited' : 'CalculatorAdmissionUnavailable' });
  }
  const budgetMs = deadline - performance.now();
  if (budgetMs <= 0) {
    place.release();
    services.metrics.countCalculation(calculator, 'timeout');
    throw new ApiProblem({ _tag: 'CalculatorOperationTimedOut' });
  }

  const result = await place.run({ plan, facts }, budgetMs);
  return answerOf(services, { plan, help }, result);
}

/** A calculation as a request asks for it, checked: the calculator's plan, the help its decode errors carry, and the facts to decode. */
export interface CheckedCalculation {
  plan: CalculatorPlan;
  help: HelpMode;
  facts: unknown;
}

/**
 * Checks what a calculation asks for, in the contract's order: the calculator must exist; then the
 * query and the body's envelope must decode; then the context must be one the calculator serves.
 * Throws the answer (an ApiProblem) when they do not. `envelopeIssues` and `context` come from
 * decodeEnvelope, or from the same check of a pay run's item.
 */
export function checkCalculation(
  services: Services,
  calculatorId: string,
  query: { values: Record<string, string | undefined>; problems: QueryProblem[] },
  body: unknown,
  envelopeIssues: InputIssue[],
  context: RequestedContext,
): CheckedCalculation {
  const facts = (body as { facts?: unknown } | undefined)?.facts;
  const { plan, help } = resolveCalculator(services, calculatorId, query, envelopeIssues, context, facts);
  return { plan, help, facts };
}

/**
 * What a finished calculation answers: the report's bytes for a 200, every other outcome thrown as
 * its ApiProblem. Counts the outcome.
 */
export function answerOf(services: Services, { plan, help }: Pick<CheckedCalculation, 'plan' | 'help'>, result: CalculationResult): Buffer {
  services.metrics.countCalculation(plan.def.id, OUTCOMES[result.kind]);
  switch (result.kind) {
    case 'ok':
      // Bytes, as the engine writes them: a string would be measured and then encoded again.
      return result.body;
    case 'decode':
      throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: result.issues, calculatorId: plan.def.id, help: factHelp(plan, help) });
    case 'calculation':
      throw new ApiProblem({ _tag: 'CalculationError', message: result.message, cause: result.cause });
    case 'timeout':
      throw new ApiProblem({ _tag: 'CalculatorOperationTimedOut' });
    case 'unavailable':
      throw new ApiProblem({ _tag: 'CalculatorAdmissionUnavailable' });
  }
}

const OUTCOMES: Record<CalculationResult['kind'], CalculationOutcomeLabel> = {
  ok: 'ok',
  decode: 'invalid-facts',
  calculation: 'calculation-error',
  timeout: 'timeout',
  unavailable: 'unavailable',
};

/** Parses the body and checks its envelope; facts themselves are decoded by the calculator's own schema. */
export function decodeEnvelope(
  services: Services,
  request: IncomingMessage,
  raw: Buffer,
): { body: unknown; issues: InputIssue[]; context: RequestedContext } {
  // The usual header, exactly, spares type-is its parse; anything else is read by it.
  if (request.headers['content-type'] !== 'application/json' && !typeis(request, ['application/json'])) {
    return { body: undefined, issues: [{ path: [], message: 'expected a JSON body sent with content-type: application/json' }], context: {} };
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return { body: undefined, issues: [{ path: [], message: 'expected a JSON object; the body is not valid JSON' }], context: {} };
  }
  const { issues, context } = issuesOfRequest(services, body);
  return { body, issues, context };
}
