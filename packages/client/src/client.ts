import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api.js';
import type {
  CalculateError,
  CalculateResult,
  CalculatorId,
  ErrorStatus,
  FactsOf,
  HelpMode,
  Jurisdiction,
  PayRunErrorStatus,
  PayRunItem,
  PayRunItemResult,
  PayRunResult,
  ReportOf,
  RunResponseOf,
  Schemas,
  ServiceError,
  TaxYear,
} from './types.js';

/** Opt-in retry of a 429, after the wait its `retry-after` header asks for. */
export interface RetryOptions {
  /** Requests to send at most, the first included: 1 means no retry. */
  readonly maxAttempts: number;
  /** A 429 asking for a longer wait than this (seconds) is returned, not waited for. Default 120. */
  readonly maxWaitSeconds?: number;
  /** How to wait; defaults to a timer that the call's signal cancels. A hook for schedulers and tests. */
  readonly wait?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** How a client talks to the service. */
export interface ClientOptions {
  /** Where the service is, e.g. http://127.0.0.1:4000 (the routes' /api/... paths are added to it). */
  readonly baseUrl: string;
  /** Time allowed for each request, in milliseconds. Default 15000: the service's own limits (5 s body, 5 s calculation) fit inside. */
  readonly timeoutMs?: number;
  /** Retry of a 429; off unless given. */
  readonly retry?: RetryOptions;
  /** The fetch to use; defaults to the global one. */
  readonly fetch?: typeof globalThis.fetch;
}

/** Options of one calculation; each overrides the client's own. */
export interface CalculateOptions {
  readonly help?: HelpMode;
  readonly jurisdiction?: Jurisdiction | null;
  readonly taxYear?: TaxYear | null;
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  readonly signal?: AbortSignal;
}

/** Options of one pay run; each overrides the client's own. */
export interface PayRunOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** A client of the tax rules API. */
export interface TaxRulesClient {
  /** Runs a calculator on its facts. Never throws: the result says what happened. */
  calculate<Id extends CalculatorId>(calculatorId: Id, facts: FactsOf<Id>, options?: CalculateOptions): Promise<CalculateResult<Id>>;
  /**
   * Runs a whole pay run in one request (a service with API_EXTENSIONS=pay-runs): each item's facts
   * are typed by its `calculatorId`, and each result, in the order sent, by the same calculator.
   * Never throws. Not retried: resend the items answered 429 or 504 in a new run.
   */
  payRun<const Items extends readonly PayRunItem[]>(items: Items, options?: PayRunOptions): Promise<PayRunResult<Items>>;
  /** The generated client over every operation of the description (catalog, metadata, documentation). */
  readonly api: Client<paths>;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_WAIT_SECONDS = 120;
const CALCULATE = '/api/v1/calculators/{calculatorId}/calculate';
const PAY_RUNS = '/api/v1/pay-runs';

// Statuses whose bodies are the service's documented errors. Checked against the description: if it
// documents a new status for calculate, this stops compiling until the status is listed here.
const ERROR_STATUSES = [400, 404, 405, 408, 413, 429, 503, 504] as const satisfies readonly ErrorStatus[];
const everyStatusListed: [Exclude<ErrorStatus, (typeof ERROR_STATUSES)[number]>] extends [never] ? true : never = true;
void everyStatusListed;
const PAY_RUN_ERROR_STATUSES = [400, 405, 408, 413, 503] as const satisfies readonly PayRunErrorStatus[];
const everyPayRunStatusListed: [Exclude<PayRunErrorStatus, (typeof PAY_RUN_ERROR_STATUSES)[number]>] extends [never] ? true : never = true;
void everyPayRunStatusListed;

/** Creates a client; nothing is sent until a call. */
export function createTaxRulesClient(options: ClientOptions): TaxRulesClient {
  const api = createFetchClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });

  async function attempt<Id extends CalculatorId>(calculatorId: Id, facts: FactsOf<Id>, call: CalculateOptions, attempts: number): Promise<CalculateResult<Id>> {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const body = {
      facts,
      ...(call.jurisdiction !== undefined ? { jurisdiction: call.jurisdiction } : {}),
      ...(call.taxYear !== undefined ? { taxYear: call.taxYear } : {}),
    } as unknown as Schemas['CalculatorRunRequest']; // FactsOf<Id> is that calculator's part of the union
    const failed = (status: number | undefined, error: CalculateError, retryAfterSeconds?: number): CalculateResult<Id> => ({ ok: false, status, error, retryAfterSeconds, attempts });
    let answer;
    try {
      answer = await api.POST(CALCULATE, { params: { path: { calculatorId }, query: call.help ? { help: call.help } : {} }, body, signal });
    } catch (error) {
      if (call.signal?.aborted) return failed(undefined, { _tag: 'ClientAborted', message: 'The calculation was cancelled by its caller.' });
      if (timeout.aborted) return failed(undefined, { _tag: 'ClientTimeout', message: `No answer came within ${timeoutMs} ms.`, timeoutMs });
      return failed(undefined, { _tag: 'ClientNetworkError', message: `The service could not be reached: ${error instanceof Error ? error.message : String(error)}` });
    }
    const { data, error, response } = answer;
    if (data !== undefined) {
      // The response type follows the calculator; check the service answered for the one asked.
      if (data.calculator.calculatorId !== calculatorId) {
        return failed(response.status, { _tag: 'ClientUnexpectedResponse', message: 'The answer is for another calculator.', status: response.status });
      }
      const typed = data as RunResponseOf<Id>;
      return { ok: true, status: 200, response: typed, report: typed.report as ReportOf<Id>, attempts };
    }
    const serviceError = (error as { error?: unknown } | undefined)?.error ?? error;
    if (!(ERROR_STATUSES as readonly number[]).includes(response.status) || !isTagged(serviceError)) {
      return failed(response.status, { _tag: 'ClientUnexpectedResponse', message: `The service answered ${response.status} with a body the API description does not document.`, status: response.status });
    }
    const retryAfter = response.status === 429 ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
    return failed(response.status, serviceError as CalculateError, retryAfter);
  }

  async function calculate<Id extends CalculatorId>(calculatorId: Id, facts: FactsOf<Id>, call: CalculateOptions = {}): Promise<CalculateResult<Id>> {
    const retry = call.retry ?? options.retry;
    const maxAttempts = Math.max(1, retry?.maxAttempts ?? 1);
    for (let attempts = 1; ; attempts++) {
      const result = await attempt(calculatorId, facts, call, attempts);
      if (result.ok || result.status !== 429 || attempts >= maxAttempts || !retry) return result;
      const waitSeconds = result.retryAfterSeconds;
      if (waitSeconds === undefined || waitSeconds > (retry.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS)) return result;
      try {
        await (retry.wait ?? sleep)(waitSeconds * 1000, call.signal);
      } catch {
        return { ...result, error: { _tag: 'ClientAborted', message: 'The calculation was cancelled by its caller while waiting to retry.' } };
      }
    }
  }

  async function payRun<const Items extends readonly PayRunItem[]>(items: Items, call: PayRunOptions = {}): Promise<PayRunResult<Items>> {
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const failed = (status: number | undefined, error: CalculateError): PayRunResult<Items> => ({ ok: false, status, error });
    let answer;
    try {
      answer = await api.POST(PAY_RUNS, { body: { items: [...items] }, signal });
    } catch (error) {
      if (call.signal?.aborted) return failed(undefined, { _tag: 'ClientAborted', message: 'The pay run was cancelled by its caller.' });
      if (timeout.aborted) return failed(undefined, { _tag: 'ClientTimeout', message: `No answer came within ${timeoutMs} ms.`, timeoutMs });
      return failed(undefined, { _tag: 'ClientNetworkError', message: `The service could not be reached: ${error instanceof Error ? error.message : String(error)}` });
    }
    const { data, error, response } = answer;
    if (data !== undefined) {
      if (data.items.length !== items.length) {
        return failed(response.status, { _tag: 'ClientUnexpectedResponse', message: 'The answer does not hold one result per item.', status: response.status });
      }
      const results = data.items.map((result, index): PayRunItemResult<CalculatorId> => {
        const body = result.body as { error?: unknown; calculator?: { calculatorId?: unknown }; report?: unknown };
        if (result.status === 200 && body.calculator?.calculatorId === items[index]!.calculatorId) {
          return { id: result.id!, ok: true, status: 200, response: body as RunResponseOf<CalculatorId>, report: body.report as ReportOf<CalculatorId> };
        }
        if (result.status !== 200 && isTagged(body.error)) return { id: result.id, ok: false, status: result.status, error: body.error as ServiceError };
        return { id: result.id, ok: false, status: result.status, error: { _tag: 'ClientUnexpectedResponse', message: 'The result of this item is not one the API description documents for it.', status: result.status } };
      });
      // Each result is typed by its item's calculator, which was checked above.
      return { ok: true, status: 200, results: results as unknown as Extract<PayRunResult<Items>, { ok: true }>['results'] };
    }
    if (response.status === 404) {
      return failed(404, { _tag: 'ClientUnexpectedResponse', message: 'The service does not serve pay runs: its operator turns them on with API_EXTENSIONS=pay-runs.', status: 404 });
    }
    const serviceError = (error as { error?: unknown } | undefined)?.error ?? error;
    if (!(PAY_RUN_ERROR_STATUSES as readonly number[]).includes(response.status) || !isTagged(serviceError)) {
      return failed(response.status, { _tag: 'ClientUnexpectedResponse', message: `The service answered ${response.status} with a body the API description does not document.`, status: response.status });
    }
    return failed(response.status, serviceError as CalculateError);
  }

  return { calculate, payRun, api };
}

function isTagged(value: unknown): value is { _tag: string } {
  return typeof value === 'object' && value !== null && typeof (value as { _tag?: unknown })._tag === 'string';
}

/** The wait a `retry-after` header asks for, in whole seconds (its delay-seconds form). */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', cancel);
      resolve();
    }, milliseconds);
    const cancel = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', cancel, { once: true });
  });
}
