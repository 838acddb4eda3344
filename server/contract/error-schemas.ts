import { CONTRACT_SCHEMAS, object, ref, tagged, type SchemaType } from '../../engine/index.ts';

const message = { type: 'string' } as const;

/**
 * The errors answered with fixed text, one row each: status, code, retry advice and message as the
 * client gets them, and what the API description says of them. Their schemas are derived from it.
 */
export const FIXED_ERRORS = {
  CalculatorOperationTimedOut: {
    status: 504,
    code: 'calculation-timeout',
    retry: 'try-again-manually',
    message: 'The calculation could not finish within five seconds. Try again when you are ready.',
    description: 'The operation could not finish within five seconds.',
  },
  CalculatorRequestBodyTimedOut: {
    status: 408,
    code: 'request-timeout',
    retry: 'try-again-manually',
    message: 'The request could not be read within five seconds. Try again when you are ready.',
    description: 'The request body was not received within five seconds.',
  },
  CalculatorRequestBodyTooLarge: {
    status: 413,
    code: 'request-too-large',
    retry: 'reduce-request',
    message: 'This request is too large. Reduce it to 64 KiB or less and try again.',
    description: 'The request body is over 64 KiB.',
  },
  CalculatorRateLimited: {
    status: 429,
    code: 'rate-limited',
    retry: 'wait-then-try-manually',
    message: 'Too many calculations were sent. Wait a minute before trying again.',
    description: 'Too many calculations from this client; wait a minute.',
  },
  CalculatorAdmissionUnavailable: {
    status: 503,
    code: 'calculation-admission-unavailable',
    retry: 'try-again-manually',
    message: 'The calculation could not be started. Try again when you are ready.',
    description: 'The calculation could not be admitted.',
  },
  CalculatorCapacityExceeded: {
    status: 503,
    code: 'calculation-capacity',
    retry: 'try-again-manually',
    message: 'The calculators are busy. Try again when you are ready.',
    description: 'Every calculation place is busy.',
  },
} as const;

export type FixedErrorTag = keyof typeof FIXED_ERRORS;

type FixedErrorSchema<Tag extends FixedErrorTag> = ReturnType<
  typeof tagged<Tag, { code: { const: (typeof FIXED_ERRORS)[Tag]['code'] }; message: typeof message; retry: { const: (typeof FIXED_ERRORS)[Tag]['retry'] } }>
> & { description: string };

function fixedErrorSchemas(): { [Tag in FixedErrorTag]: FixedErrorSchema<Tag> } {
  const entries = Object.entries(FIXED_ERRORS).map(([tag, fixed]) => [
    tag,
    { ...tagged(tag, { code: { const: fixed.code }, message, retry: { const: fixed.retry } }), description: fixed.description },
  ]);
  // Object.fromEntries forgets which row gave which entry; the mapped type above says it again.
  return Object.fromEntries(entries) as { [Tag in FixedErrorTag]: FixedErrorSchema<Tag> };
}

/**
 * The JSON Schemas of every error body the API answers with: the one definition of each. The
 * service's error types are derived from them, and its API description uses them, narrowing only
 * the calculator ids to those it serves.
 */
export const ERROR_SCHEMAS = {
  ...fixedErrorSchemas(),
  CalculationError: tagged('CalculationError', { message, cause: { description: 'A structured, safe reason (rule id, parameter id).' } }, ['message']),
  CalculatorInputIssue: tagged('CalculatorInputIssue', { message, path: { type: 'array', items: { type: 'string' } } }),
  CalculatorInputDecodeError: tagged(
    'CalculatorInputDecodeError',
    {
      issues: { type: 'array', items: ref('CalculatorInputIssue') },
      message,
      calculatorId: { type: ['string', 'null'] },
      help: { oneOf: [{ type: 'array', items: ref('FactHelp') }, { type: 'null' }] },
    },
    ['issues', 'message'],
  ),
  UnsupportedCalculatorError: tagged('UnsupportedCalculatorError', { message, requestedCalculator: { type: 'string' } }),
  UnsupportedCalculatorContextError: tagged('UnsupportedCalculatorContextError', {
    context: object({ jurisdiction: { type: ['string', 'null'] }, taxYear: { type: ['string', 'null'] } }, []),
    message,
    requestedCalculator: { type: 'string' },
  }),
  DocsPageUnavailable: tagged('DocsPageUnavailable', { message }),
  DocsSearchUnavailable: tagged('DocsSearchUnavailable', { message }),
  DocsQueryInvalid: tagged('DocsQueryInvalid', { message }),
  RouteNotFound: tagged('RouteNotFound', { message }),
  MethodNotAllowed: tagged('MethodNotAllowed', { message }),
};

/** The tags of the error bodies (and of the input issue they carry). */
export type ErrorTag = keyof typeof ERROR_SCHEMAS;

/** The TypeScript type of an error body, derived from its schema. */
export type ErrorBody<Tag extends ErrorTag> = SchemaType<(typeof ERROR_SCHEMAS)[Tag], typeof ERROR_SCHEMAS & typeof CONTRACT_SCHEMAS>;

/** The context a request asked for, as the UnsupportedCalculatorContextError echoes it: a field only when the request gave one. */
export type RequestedContext = ErrorBody<'UnsupportedCalculatorContextError'>['context'];
