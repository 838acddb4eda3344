import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** Statuses that mean a limit or a deadline answered, not the calculator: counted by kind. */
const LIMIT_STATUSES = new Set([408, 413, 429, 503, 504]);

/** The `outcome` label of the calculations counter: what became of a calculate request once its calculator was known. */
export type CalculationOutcomeLabel = 'ok' | 'invalid-facts' | 'calculation-error' | 'timeout' | 'unavailable' | 'rate-limited' | 'busy';

/** The service's metrics, in one registry that the admin listener exposes in Prometheus text format. */
export interface ServiceMetrics {
  readonly registry: Registry;
  /** One answered request: its method, route template (never the raw path), status and duration. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  countCalculation(calculatorId: string, outcome: CalculationOutcomeLabel): void;
  /** An answer given by a limit (408, 413, 429, 503, 504), by the error tag that says which. */
  countLimitResponse(status: number, kind: string): void;
}

/**
 * Creates the metrics in a registry of their own. `processMetrics` adds Node's standard process
 * metrics (memory, event-loop delay, garbage collection, handles): once per process, in the server.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by method, route template and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the application to its answer, by method, route template and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const calculations = new Counter({ name: 'calculations_total', help: 'Calculate requests for a known calculator, by calculator and outcome.', labelNames: ['calculator', 'outcome'], registers: [registry] });
  const limits = new Counter({ name: 'http_limit_responses_total', help: 'Answers given by a limit or deadline (408, 413, 429, 503, 504), by status and error tag.', labelNames: ['status', 'kind'], registers: [registry] });
  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    countCalculation(calculatorId, outcome) {
      calculations.inc({ calculator: calculatorId, outcome });
    },
    countLimitResponse(status, kind) {
      if (LIMIT_STATUSES.has(status)) limits.inc({ status: String(status), kind });
    },
  };
}
