import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Catalog } from '../engine/index.ts';
import type { DocsSite } from '../docs-site/index.ts';
import type { CalculationRunner } from './calculation/runner.ts';
import type { ServiceConfig } from './config.ts';
import type { ClientShare } from './limits/client-share.ts';
import type { LoadMonitor } from './limits/load.ts';
import type { SendingBudget } from './limits/sending-budget.ts';
import type { RateLimiter } from './limits/rate-limit.ts';
import type { MetadataSource } from './metadata.ts';
import type { ServiceMetrics } from './metrics.ts';
import type { OperationSpec } from './openapi/operations.ts';
import type { createQueryChecker } from './query.ts';

/** The validators a pay run is checked with, compiled from its schemas (see openapi/pay-run-schemas.ts). */
export interface PayRunValidators {
  /** The body: an object with a list of items of the allowed length; not the items themselves. */
  envelope: ValidateFunction;
  /** What an item names before its calculation is checked: its id and calculator. */
  itemHead: ValidateFunction;
  /** An item's id on its own, so that an item with a usable id keeps it in its result whatever else is wrong. */
  itemId: ValidateFunction;
}

/** Everything the routes use, worked out once when the app is built. */
export interface Services {
  catalog: Catalog;
  /** The tax year a request without one gets. */
  defaultTaxYear: string;
  config: ServiceConfig;
  metadata: MetadataSource;
  runner: CalculationRunner;
  rateLimiter: RateLimiter;
  load: LoadMonitor;
  metrics: ServiceMetrics;
  docs: DocsSite | undefined;
  /** The operations served: the contract's, and those of the API extensions turned on. */
  operations: readonly OperationSpec[];
  /** How a pay run is checked, when pay runs are served. */
  payRun: PayRunValidators | undefined;
  /** Each client's share of the time spent searching the documentation. */
  searchShare: ClientShare;
  /** Bytes of large static files sent each second, in all and per client. */
  sendingBudget: SendingBudget;
  /** The query checker of an operation, from the operations table. */
  queryChecker(operationId: string): ReturnType<typeof createQueryChecker>;
  /** Validates the calculate body's envelope: facts object, jurisdiction, taxYear, nothing else. */
  validateRunRequest: ValidateFunction;
  /** Is a jurisdiction / tax year value well formed (if perhaps not served)? */
  wellFormed: { jurisdiction: ValidateFunction; taxYear: ValidateFunction };
  /** The OpenAPI document, serialised. */
  openApiJson: string;
}
