/**
 * A typed client of the tax rules API: types generated from its OpenAPI description with
 * openapi-typescript, requests sent with openapi-fetch, and `calculate`, whose facts and report
 * types follow the calculator.
 */
export { createTaxRulesClient, type CalculateOptions, type ClientOptions, type PayRunOptions, type RetryOptions, type TaxRulesClient } from './client.js';
export type {
  CalculateError,
  CalculateResult,
  CalculatorId,
  ClientError,
  ErrorStatus,
  FactsOf,
  HelpMode,
  Jurisdiction,
  PayRunErrorStatus,
  PayRunItem,
  PayRunItemOf,
  PayRunItemResult,
  PayRunResult,
  Report,
  ReportOf,
  RunRequestOf,
  RunResponseOf,
  Schemas,
  ServiceError,
  TaxYear,
} from './types.js';
export type { components, operations, paths } from './generated/api.js';
