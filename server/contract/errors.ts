import type { InputIssue } from '../../engine/index.ts';
import { CALCULATOR_ID_PATTERN_SOURCE } from './calculator-id.ts';
import { FIXED_ERRORS, type ErrorBody, type ErrorTag, type FixedErrorTag } from './error-schemas.ts';

type Body<Tag extends ErrorTag> = ErrorBody<Tag>;

/**
 * Every error the API can answer with, as data: the fields of its body that the thrower knows, in
 * their body's types, plus what shapes the rest (the input issues, the near miss, the allowed methods).
 */
export type ApiError =
  | { _tag: FixedErrorTag }
  | Body<'CalculationError'>
  | (Pick<Body<'CalculatorInputDecodeError'>, '_tag' | 'calculatorId' | 'help'> & { issues: InputIssue[] })
  | Pick<Body<'UnsupportedCalculatorError'>, '_tag' | 'requestedCalculator'>
  | (Pick<Body<'UnsupportedCalculatorContextError'>, '_tag' | 'requestedCalculator' | 'context'> & { dateFact?: string })
  | Pick<Body<'DocsPageUnavailable' | 'DocsSearchUnavailable'>, '_tag'>
  | Body<'DocsQueryInvalid'>
  | (Pick<Body<'RouteNotFound'>, '_tag'> & { near?: Exclude<keyof typeof NEAR_MISS, 'none'> | undefined })
  | (Pick<Body<'MethodNotAllowed'>, '_tag'> & { allow: string[] });

/**
 * An error on its way to the client; thrown anywhere in a request, answered in one place. Not an
 * Error: these are expected answers, and capturing a stack trace for each (a busy server refuses
 * thousands a second) is wasted work.
 */
export class ApiProblem {
  constructor(readonly error: ApiError) {}
}

/** The body of an error answer, bare or wrapped as `{error}`. */
export type ErrorAnswerBody = Body<ApiError['_tag']> | { error: Body<ApiError['_tag']> };

export interface ErrorResponse {
  status: number;
  body: ErrorAnswerBody;
  headers: Record<string, string>;
}

/** What a 404 adds when the path is a near miss of a route. */
const NEAR_MISS = {
  none: '',
  'trailing-slash': ': paths take no trailing slash',
  'empty-segment': ': a path segment is empty (is an id missing?)',
} as const;

/** Calculator errors travel wrapped as `{error}`; documentation and routing errors travel bare. */
const UNWRAPPED: ReadonlySet<ErrorTag> = new Set<ErrorTag>(['DocsPageUnavailable', 'DocsSearchUnavailable', 'DocsQueryInvalid', 'RouteNotFound', 'MethodNotAllowed']);

/** Maps an API error to its status, body and headers: the only place that knows that mapping. */
export function errorResponse(error: ApiError): ErrorResponse {
  const headers: Record<string, string> = {};
  let status: number;
  let body: Body<ApiError['_tag']>;
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
        message:
          error.dateFact === undefined
            ? 'This calculator is not available for the requested jurisdiction or tax year. List the tax years at /api/v1/tax-years.'
            : `This calculator is not available for the tax year of the date in facts.${error.dateFact}: no tax year served holds it. List the tax years at /api/v1/tax-years.`,
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
      const fixed = FIXED_ERRORS[error._tag];
      status = fixed.status;
      // The compiler cannot pair a tag with its own row's code; the schema is derived from that row.
      body = { _tag: error._tag, code: fixed.code, message: fixed.message, retry: fixed.retry } as Body<FixedErrorTag>;
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
