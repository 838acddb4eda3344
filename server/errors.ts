import type { FactHelp, InputIssue } from '../engine/index.ts';
import { CALCULATOR_ID_PATTERN_SOURCE } from './calculator-id.ts';

/** The fixed-text errors of the contract: tag, status, code, retry advice and message. */
const FIXED = {
  CalculatorOperationTimedOut: {
    status: 504,
    code: 'calculation-timeout',
    retry: 'try-again-manually',
    message: 'The calculation could not finish within five seconds. Try again when you are ready.',
  },
  CalculatorRequestBodyTimedOut: {
    status: 408,
    code: 'request-timeout',
    retry: 'try-again-manually',
    message: 'The request could not be read within five seconds. Try again when you are ready.',
  },
  CalculatorRequestBodyTooLarge: {
    status: 413,
    code: 'request-too-large',
    retry: 'reduce-request',
    message: 'This request is too large. Reduce it to 64 KiB or less and try again.',
  },
  CalculatorRateLimited: {
    status: 429,
    code: 'rate-limited',
    retry: 'wait-then-try-manually',
    message: 'Too many calculations were sent. Wait a minute before trying again.',
  },
  CalculatorAdmissionUnavailable: {
    status: 503,
    code: 'calculation-admission-unavailable',
    retry: 'try-again-manually',
    message: 'The calculation could not be started. Try again when you are ready.',
  },
  CalculatorCapacityExceeded: {
    status: 503,
    code: 'calculation-capacity',
    retry: 'try-again-manually',
    message: 'The calculators are busy. Try again when you are ready.',
  },
} as const;

export type FixedErrorTag = keyof typeof FIXED;

/** Every error the API can answer with, as data. */
export type ApiError =
  | { _tag: FixedErrorTag }
  | { _tag: 'CalculationError'; message: string; cause: unknown }
  | { _tag: 'CalculatorInputDecodeError'; issues: InputIssue[]; calculatorId?: string | null; help?: FactHelp[] | null }
  | { _tag: 'UnsupportedCalculatorError'; requestedCalculator: string }
  | { _tag: 'UnsupportedCalculatorContextError'; requestedCalculator: string; context: { jurisdiction?: string | null; taxYear?: string | null } }
  | { _tag: 'DocsPageUnavailable' }
  | { _tag: 'DocsSearchUnavailable' }
  | { _tag: 'DocsQueryInvalid'; message: string }
  | { _tag: 'RouteNotFound'; near?: 'trailing-slash' | 'empty-segment' | undefined }
  | { _tag: 'MethodNotAllowed'; allow: string[] };

/**
 * An error on its way to the client; thrown anywhere in a request, answered in one place. Not an
 * Error: these are expected answers, and capturing a stack trace for each (a busy server refuses
 * thousands a second) is wasted work.
 */
export class ApiProblem {
  constructor(readonly error: ApiError) {}
}

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** What a 404 adds when the path is a near miss of a route. */
const NEAR_MISS = {
  none: '',
  'trailing-slash': ': paths take no trailing slash',
  'empty-segment': ': a path segment is empty (is an id missing?)',
} as const;

/** Calculator errors travel wrapped as `{error}`; documentation and routing errors travel bare. */
const UNWRAPPED = new Set(['DocsPageUnavailable', 'DocsSearchUnavailable', 'DocsQueryInvalid', 'RouteNotFound', 'MethodNotAllowed']);

/** Maps an API error to its status, body and headers: the only place that knows that mapping. */
export function errorResponse(error: ApiError): ErrorResponse {
  const headers: Record<string, string> = {};
  let status: number;
  let body: Record<string, unknown>;
  switch (error._tag) {
    case 'CalculationError':
      status = 400;
      body = { _tag: error._tag, message: error.message, cause: error.cause };
      break;
    case 'CalculatorInputDecodeError': {
      status = 400;
      const count = error.issues.length;
      body = {
        _tag: error._tag,
        message: `The request could not be decoded: ${count} ${count === 1 ? 'problem was' : 'problems were'} found. Each issue names the path and what was expected there.`,
        issues: error.issues.map((issue) => ({ _tag: 'CalculatorInputIssue', message: issue.message, path: issue.path })),
        calculatorId: error.calculatorId ?? null,
        ...(error.help ? { help: error.help } : {}),
      };
      break;
    }
    case 'UnsupportedCalculatorError':
      status = 400;
      body = { _tag: error._tag, message: 'No calculator with this id is available. List the calculators at /api/v1/calculators.', requestedCalculator: error.requestedCalculator };
      break;
    case 'UnsupportedCalculatorContextError':
      status = 400;
      body = {
        _tag: error._tag,
        message: 'This calculator is not available for the requested jurisdiction or tax year. List the tax years at /api/v1/tax-years.',
        requestedCalculator: error.requestedCalculator,
        context: error.context,
      };
      break;
    case 'DocsPageUnavailable':
      status = 404;
      body = { _tag: error._tag, message: 'The documentation page was not found.' };
      break;
    case 'DocsSearchUnavailable':
      status = 503;
      body = { _tag: error._tag, message: 'Documentation search is temporarily unavailable. Try again later.' };
      break;
    case 'DocsQueryInvalid':
      status = 400;
      body = { _tag: error._tag, message: error.message };
      break;
    case 'RouteNotFound':
      status = 404;
      body = { _tag: error._tag, message: `No route matches this path${NEAR_MISS[error.near ?? 'none']}. The API description is at /api/docs/openapi.json.` };
      break;
    case 'MethodNotAllowed':
      status = 405;
      headers.allow = error.allow.join(', ');
      body = { _tag: error._tag, message: `This route does not accept this method. Allowed: ${error.allow.join(', ')}.` };
      break;
    default: {
      const fixed = FIXED[error._tag];
      status = fixed.status;
      body = { _tag: error._tag, code: fixed.code, message: fixed.message, retry: fixed.retry };
      if (error._tag === 'CalculatorRateLimited') headers['retry-after'] = '60';
    }
  }
  return { status, body: UNWRAPPED.has(error._tag) ? body : { error: body }, headers };
}

const CALCULATOR_ID = new RegExp(CALCULATOR_ID_PATTERN_SOURCE);

/** The `requestedCalculator` value: the id when it is a plausible identifier, never arbitrary input. */
export function requestedCalculatorLabel(id: string): string {
  return CALCULATOR_ID.test(id) ? id : '(unrecognised identifier)';
}
