import type { components, operations } from './generated/api.js';

/** Every schema of the API description, by name. */
export type Schemas = components['schemas'];

/** The schema of this name, or never when the description has none. */
type SchemaNamed<Name extends string> = Name extends keyof Schemas ? Schemas[Name] : never;

/** The id of each calculator the described service runs. */
export type CalculatorId = Schemas['CalculatorEntry']['calculatorId'];

/** The calculate body of one calculator: its facts shape, and optionally the context. */
export type RunRequestOf<Id extends CalculatorId> = SchemaNamed<`${Id}.RunRequest`>;

/** The facts one calculator takes. */
export type FactsOf<Id extends CalculatorId> = RunRequestOf<Id>['facts'];

/** The answer of one calculator: its catalog entry, diagnostics and report. */
export type RunResponseOf<Id extends CalculatorId> = SchemaNamed<`${Id}.RunResponse`>;

/** The report one calculator returns. */
export type ReportOf<Id extends CalculatorId> = RunResponseOf<Id>['report'];

/** Any report, discriminated by `_tag`. */
export type Report = Schemas['CalculatorReport'];

/** A help mode: how much help a decode error carries. */
export type HelpMode = NonNullable<NonNullable<operations['runCalculator']['parameters']['query']>['help']>;

/** A jurisdiction the service serves. */
export type Jurisdiction = NonNullable<Schemas['CalculatorRunRequest']['jurisdiction']>;

/** A tax year the service serves. */
export type TaxYear = NonNullable<Schemas['CalculatorRunRequest']['taxYear']>;

type CalculateResponses = operations['runCalculator']['responses'];

/** The statuses other than 200 that the description documents for calculate. */
export type ErrorStatus = Exclude<keyof CalculateResponses, 200>;

type JsonBodyOf<Status> = Status extends keyof CalculateResponses
  ? CalculateResponses[Status] extends { content: { 'application/json': infer Body } }
    ? Body
    : never
  : never;

type Unwrapped<Body> = Body extends { error: infer Inner } ? Inner : Body;

/**
 * Every error object the service can answer calculate with, unwrapped from `{error}` where the
 * service wraps it: a union discriminated by `_tag`.
 */
export type ServiceError = Unwrapped<JsonBodyOf<ErrorStatus>>;

/** What went wrong on the client's side of the wire. */
export type ClientError =
  | { readonly _tag: 'ClientTimeout'; readonly message: string; readonly timeoutMs: number }
  | { readonly _tag: 'ClientAborted'; readonly message: string }
  | { readonly _tag: 'ClientNetworkError'; readonly message: string }
  | { readonly _tag: 'ClientUnexpectedResponse'; readonly message: string; readonly status: number };

/** Every error calculate can give, discriminated by `_tag`. */
export type CalculateError = ServiceError | ClientError;

/** The outcome of calculate: never thrown, always one of these. */
export type CalculateResult<Id extends CalculatorId> =
  | {
      readonly ok: true;
      readonly status: 200;
      readonly response: RunResponseOf<Id>;
      readonly report: ReportOf<Id>;
      /** How many requests were sent: more than one when a 429 was retried. */
      readonly attempts: number;
    }
  | {
      readonly ok: false;
      /** The HTTP status, or undefined when no answer came (timeout, abort, network). */
      readonly status: number | undefined;
      readonly error: CalculateError;
      /** From the `retry-after` header of a 429, in seconds. */
      readonly retryAfterSeconds: number | undefined;
      readonly attempts: number;
    };

/** One item of a pay run for one calculator: its calculate request, with the item's id and calculator. */
export type PayRunItemOf<Id extends CalculatorId> = SchemaNamed<`${Id}.PayRunItem`>;

/** One item of a pay run, for any calculator: its `calculatorId` says which. */
export type PayRunItem = { [Id in CalculatorId]: PayRunItemOf<Id> }[CalculatorId];

type PayRunResponses = operations['runPayRun']['responses'];

/** The statuses other than 200 that the description documents for a whole pay run. */
export type PayRunErrorStatus = Exclude<keyof PayRunResponses, 200>;

/** The result of one item, as calculate would have answered it alone: its report, or its error. */
export type PayRunItemResult<Id extends CalculatorId> =
  | {
      /** The item's id, as sent. */
      readonly id: string;
      readonly ok: true;
      readonly status: 200;
      readonly response: RunResponseOf<Id>;
      readonly report: ReportOf<Id>;
    }
  | {
      /** The item's id, or null when the item had no usable id. */
      readonly id: string | null;
      readonly ok: false;
      /** The status calculate would have answered for this item alone. */
      readonly status: number;
      readonly error: ServiceError | Extract<ClientError, { _tag: 'ClientUnexpectedResponse' }>;
    };

/** The outcome of a pay run: one result per item, in order and typed by its calculator, or why the run as a whole was refused. */
export type PayRunResult<Items extends readonly PayRunItem[]> =
  | {
      readonly ok: true;
      readonly status: 200;
      readonly results: { readonly [Index in keyof Items]: PayRunItemResult<Items[Index]['calculatorId']> };
    }
  | {
      readonly ok: false;
      /** The HTTP status, or undefined when no answer came (timeout, abort, network). */
      readonly status: number | undefined;
      readonly error: CalculateError;
    };
