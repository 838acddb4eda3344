import { factHelp, type InputIssue } from '../../engine/index.ts';
import { BodyReadFailure, readBody } from '../middleware/body.ts';
import { ApiProblem } from '../errors.ts';
import type { AppContext } from '../context.ts';
import { clientAddress, clientKey } from '../limits/client.ts';
import { issuesOfRequest } from '../request-issues.ts';
import { resolveCalculator } from './calculators.ts';
import { JSON_CONTENT_TYPE } from './respond.ts';
import type { OperationHandlers } from './operations.ts';
import type { Services } from '../services.ts';
import type { CalculationResult } from '../calculation/calculate.ts';
import type { CalculationOutcome } from '../metrics.ts';
import type { RequestedContext } from '../openapi/error-schemas.ts';

/**
 * POST calculate: body limits, then calculator, shape and context, then a calculation place (none
 * while the service is saturated), then admission, then the calculation, all within one budget.
 */
export function calculateHandlers(services: Services): OperationHandlers {
  const { config } = services;
  const checkQuery = services.queryChecker('runCalculator');

  const runCalculator = async (ctx: AppContext) => {
    // The budget runs from the request's arrival: time spent on the body, waiting for admission or
    // behind other work counts, so an answer never comes later than the budget says.
    const deadline = performance.now() + config.calcTimeoutMs;
    let raw: Buffer;
    try {
      raw = await readBody(ctx.req, config.bodyLimitBytes, config.bodyTimeoutMs);
    } catch (error) {
      if (!(error instanceof BodyReadFailure)) throw error;
      if (error.reason === 'client-gone') {
        ctx.respond = false;
        ctx.req.socket.destroy();
        return;
      }
      // The rest of the body is never read: answer, then close the connection.
      ctx.set('connection', 'close');
      ctx.res.once('finish', () => ctx.req.socket.destroySoon());
      throw new ApiProblem({ _tag: error.reason === 'too-large' ? 'CalculatorRequestBodyTooLarge' : 'CalculatorRequestBodyTimedOut' });
    }

    const calculatorId = ctx.params.calculatorId!;
    const query = checkQuery(ctx.query);
    const { body, issues, context } = decodeEnvelope(services, ctx, raw);
    const { plan, help } = resolveCalculator(services, calculatorId, query, issues, context);

    const calculator = plan.def.id;
    const client = clientKey(clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'), config.trustProxyHops));
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
    if (admission !== 'admitted') {
      place.release();
      services.metrics.countCalculation(calculator, admission === 'limited' ? 'rate-limited' : 'unavailable');
      throw new ApiProblem({ _tag: admission === 'limited' ? 'CalculatorRateLimited' : 'CalculatorAdmissionUnavailable' });
    }
    const budgetMs = deadline - performance.now();
    if (budgetMs <= 0) {
      place.release();
      services.metrics.countCalculation(calculator, 'timeout');
      throw new ApiProblem({ _tag: 'CalculatorOperationTimedOut' });
    }

    const result = await place.run(
      { calculatorId: calculator, jurisdiction: plan.context.jurisdiction, taxYear: plan.context.taxYear, facts: (body as { facts: unknown }).facts },
      budgetMs,
    );
    services.metrics.countCalculation(calculator, OUTCOMES[result.kind]);
    switch (result.kind) {
      case 'ok':
        ctx.status = 200;
        ctx.set('content-type', JSON_CONTENT_TYPE);
        // Bytes, as the engine writes them: a string body is measured by Koa (Buffer.byteLength) and
        // encoded again by the socket write.
        ctx.body = result.body;
        return;
      case 'decode':
        throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: result.issues, calculatorId: plan.def.id, help: factHelp(plan, help) });
      case 'calculation':
        throw new ApiProblem({ _tag: 'CalculationError', message: result.message, cause: result.cause });
      case 'timeout':
        throw new ApiProblem({ _tag: 'CalculatorOperationTimedOut' });
      case 'unavailable':
        throw new ApiProblem({ _tag: 'CalculatorAdmissionUnavailable' });
    }
  };
  return { runCalculator };
}

const OUTCOMES: Record<CalculationResult['kind'], CalculationOutcome> = {
  ok: 'ok',
  decode: 'invalid-facts',
  calculation: 'calculation-error',
  timeout: 'timeout',
  unavailable: 'unavailable',
};

/** Parses the body and checks its envelope; facts themselves are decoded by the calculator's own schema. */
function decodeEnvelope(
  services: Services,
  ctx: AppContext,
  raw: Buffer,
): { body: unknown; issues: InputIssue[]; context: RequestedContext } {
  // The usual header, exactly, spares type-is its parse; anything else is read by it.
  if (ctx.get('content-type') !== 'application/json' && !ctx.is('application/json')) {
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
