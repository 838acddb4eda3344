import { setImmediate as nextTurn } from 'node:timers/promises';
import typeis from 'type-is';
import { issuesFromErrors, type InputIssue } from '../../engine/index.ts';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { AppContext } from '../http/context.ts';
import { ApiProblem, errorResponse } from '../contract/errors.ts';
import { requestClientKey } from '../limits/client.ts';
import { readRouteBody } from '../http/body.ts';
import { checkedQuery, type ParsedQuery } from '../http/query.ts';
import { issuesOfRequest } from './request-issues.ts';
import type { CalculationPlace } from './runner.ts';
import type { PayRunValidators, Services } from '../services.ts';
import { answerOf, checkCalculation, type CheckedCalculation } from './route.ts';
import type { OperationHandlers } from '../http/routing.ts';
import { JSON_CONTENT_TYPE } from '../http/respond.ts';

/** Work done between two turns of the event loop, so that a long run never keeps other requests waiting long. */
const SLICE_MS = 5;

/** An item on its way: its id, and either its answer (set once known) or its checked calculation. */
interface Item {
  id: string | null;
  answer?: { status: number; body: Buffer };
  calculation?: CheckedCalculation;
}

/**
 * POST /api/v1/pay-runs (API_EXTENSIONS=pay-runs): every item answered as calculate would answer it
 * alone, in one request. The body, the load and the admission are checked once for the run; each
 * item is then checked and calculated on its own, and a problem with one is that item's answer.
 * The rate limit counts the items that are well formed, so a run admits exactly as many
 * calculations as single calls would. The run has one time budget from its arrival; items not
 * finished within it are answered 504. A run yields to the event loop between slices of work.
 */
export function payRunHandlers(services: Services, validators: PayRunValidators): OperationHandlers {
  const { config } = services;
  const checkQuery = services.queryChecker('runPayRun');
  const checkItemQuery = services.queryChecker('runCalculator');

  const itemAnswer = (error: unknown): { status: number; body: Buffer } => {
    if (!(error instanceof ApiProblem)) throw error;
    const { status, body } = errorResponse(error.error);
    services.metrics.countLimitResponse(status, error.error._tag);
    return { status, body: Buffer.from(JSON.stringify(body)) };
  };

  /** Checks one item as calculate checks a request: its head here, the rest by calculate's own checks. */
  const checkItem = (raw: unknown): Item => {
    const candidate = (raw as { id?: unknown } | null)?.id;
    const id = validators.itemId(candidate) ? (candidate as string) : null;
    try {
      if (!validators.itemHead(raw)) {
        throw new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues: issuesFromErrors(validators.itemHead.errors ?? []), calculatorId: null });
      }
      const { id: _id, calculatorId, help, ...request } = raw as Record<string, unknown>;
      const query: ParsedQuery = help === undefined ? {} : { help: help as string };
      const { issues, context } = issuesOfRequest(services, request);
      return { id, calculation: checkCalculation(services, calculatorId as string, checkItemQuery(query), request, issues, context) };
    } catch (error) {
      return { id, answer: itemAnswer(error) };
    }
  };

  /** A calculation place for the next item, waiting a turn at a time while others hold them all; none once the deadline passes. */
  const placeBefore = async (deadline: number): Promise<CalculationPlace | undefined> => {
    for (;;) {
      const place = services.runner.tryAcquire();
      if (place || performance.now() >= deadline) return place;
      await nextTurn();
    }
  };

  return {
    runPayRun: async (ctx: AppContext) => {
      const deadline = performance.now() + config.calcTimeoutMs;
      checkedQuery(checkQuery(ctx.query));
      const raw = await readRouteBody(ctx, config.payRunBodyLimitBytes, config.bodyTimeoutMs);
      if (!raw) return;
      const body = parseEnvelope(ctx, raw, validators.envelope);

      // Shed load for the run as a whole: saturated, or with no place free, nothing is run.
      let place = services.load.saturated() ? undefined : services.runner.tryAcquire();
      if (!place) throw new ApiProblem({ _tag: 'CalculatorCapacityExceeded' });
      const items = body.items.map(checkItem);
      try {
        const wanted = items.filter((item) => item.calculation !== undefined);
        const admission = wanted.length === 0 ? 0 : await services.rateLimiter.admit(requestClientKey(ctx.req, config.trustProxyHops), wanted.length);
        if (admission === 'unavailable') {
          for (const item of wanted) services.metrics.countCalculation(item.calculation!.plan.def.id, 'unavailable');
          throw new ApiProblem({ _tag: 'CalculatorAdmissionUnavailable' });
        }
        for (const item of wanted.slice(admission)) {
          services.metrics.countCalculation(item.calculation!.plan.def.id, 'rate-limited');
          item.answer = itemAnswer(new ApiProblem({ _tag: 'CalculatorRateLimited' }));
        }
        let sliceStart = performance.now();
        for (const item of wanted.slice(0, admission)) {
          const { plan, facts } = item.calculation!;
          if (performance.now() - sliceStart >= SLICE_MS) {
            await nextTurn();
            sliceStart = performance.now();
          }
          // A client gone mid-run is owed nothing more.
          if (ctx.req.socket.destroyed) return;
          place ??= await placeBefore(deadline);
          const budgetMs = deadline - performance.now();
          if (!place || budgetMs <= 0) {
            services.metrics.countCalculation(plan.def.id, 'timeout');
            item.answer = itemAnswer(new ApiProblem({ _tag: 'CalculatorOperationTimedOut' }));
            continue;
          }
          // Running a calculation gives its place back.
          const held: CalculationPlace = place;
          place = undefined;
          const result = await held.run({ plan, facts }, budgetMs);
          try {
            item.answer = { status: 200, body: answerOf(services, item.calculation!, result) };
          } catch (error) {
            item.answer = itemAnswer(error);
          }
        }
      } finally {
        place?.release();
      }

      ctx.status = 200;
      ctx.set('content-type', JSON_CONTENT_TYPE);
      ctx.body = resultsJson(items);
    },
  };
}

/** Parses and checks the run's body: JSON, sent as JSON, an object with a list of items of the allowed length. */
function parseEnvelope(ctx: AppContext, raw: Buffer, envelope: ValidateFunction): { items: unknown[] } {
  const problem = (issues: InputIssue[]) => new ApiProblem({ _tag: 'CalculatorInputDecodeError', issues, calculatorId: null });
  if (!typeis(ctx.req, ['application/json'])) throw problem([{ path: [], message: 'expected a JSON body sent with content-type: application/json' }]);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw problem([{ path: [], message: 'expected a JSON object; the body is not valid JSON' }]);
  }
  if (!envelope(body)) throw problem(issuesFromErrors(envelope.errors ?? []));
  return body as { items: unknown[] };
}

/** The run's answer: each item's id, status and body, the bodies as calculate wrote them. */
function resultsJson(items: readonly Item[]): Buffer {
  const parts: Buffer[] = [Buffer.from('{"items":[')];
  items.forEach((item, index) => {
    // Every item has its answer once the run is over.
    const { status, body } = item.answer!;
    parts.push(Buffer.from(`${index === 0 ? '' : ','}{"id":${JSON.stringify(item.id)},"status":${status},"body":`), body, Buffer.from('}'));
  });
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
