import type Koa from 'koa';
import type { OperationSpec } from '../contract/operations.ts';

/** Per-request state the middleware share. */
export interface RequestState {
  /** The operation of the API the request matched, set by the router. */
  operation?: OperationSpec;
}

export type AppContext = Koa.ParameterizedContext<RequestState>;
