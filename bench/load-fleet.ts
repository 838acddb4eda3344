import { runLevel } from './load-client.ts';
import type { ProbeProcess } from './load-probe.ts';
import { saturationReport, throughputReport, workersReport, type WorkersReport } from './load-report.ts';
import { startService } from './load-service.ts';
import { nextCalculation, nextFloodRequest } from './load-traffic.ts';

/** How the service is measured at each worker count. A duration of 0 skips its part. */
export interface FleetPlan {
  /** `CALC_CONCURRENCY` of every worker. */
  pool: number;
  warmupMs: number;
  /** Closed-loop clients sending calculations only, and for how long. */
  throughputClients: number;
  throughputMs: number;
  /** Clients of the flood that saturates the service, and for how long. */
  floodClients: number;
  saturationMs: number;
  /** The light request, how often it is sent, and for how long on the idle service first. */
  probePath: string;
  probePerSecond: number;
  probeIdleMs: number;
  maxRequests: number;
  seed: number;
}

/**
 * Measures the service run with `workers` worker processes (`WEB_CONCURRENCY`): its calculation
 * throughput with load shedding off, as the levels measure capacity; then, started again with load
 * shedding as the service does it by default, the latency of a light request sent from another
 * process while a flood of calculations and new searches saturates it, against the same request on
 * the idle service. `firstCalcOkPerSecond` is the first worker count's throughput, for the ratio.
 */
export async function measureWorkers(workers: number, plan: FleetPlan, probe: ProbeProcess, firstCalcOkPerSecond?: number): Promise<WorkersReport> {
  const env = { WEB_CONCURRENCY: String(workers), CALC_CONCURRENCY: String(plan.pool) };
  const serviceExitCodes: (number | null)[] = [];
  const level = { maxRequests: plan.maxRequests, seed: plan.seed + workers };
  let throughput;
  let saturation;

  if (plan.throughputMs > 0) {
    const service = await startService(env);
    try {
      if (plan.warmupMs > 0) await runLevel({ url: service.url, concurrency: plan.throughputClients, durationMs: plan.warmupMs, traffic: nextCalculation, ...level, seed: level.seed + 9999 });
      const outcome = await runLevel({ url: service.url, concurrency: plan.throughputClients, durationMs: plan.throughputMs, traffic: nextCalculation, ...level });
      throughput = throughputReport(outcome, firstCalcOkPerSecond);
    } finally {
      serviceExitCodes.push(await service.stop());
    }
  }

  if (plan.saturationMs > 0) {
    // The operator's own setting if there is one, else the service's default.
    const service = await startService({ ...env, MAX_EVENT_LOOP_DELAY_MS: process.env.MAX_EVENT_LOOP_DELAY_MS });
    try {
      if (plan.warmupMs > 0) await runLevel({ url: service.url, concurrency: 10, durationMs: plan.warmupMs, calcSlots: plan.pool, ...level, seed: level.seed + 9999 });
      const probePlan = { url: service.url, path: plan.probePath, perSecond: plan.probePerSecond };
      const idle = await probe.run({ ...probePlan, durationMs: plan.probeIdleMs });
      const [flood, saturated] = await Promise.all([
        runLevel({ url: service.url, concurrency: plan.floodClients, durationMs: plan.saturationMs, traffic: nextFloodRequest, ...level }),
        probe.run({ ...probePlan, durationMs: plan.saturationMs }),
      ]);
      saturation = saturationReport(flood, idle, saturated, plan.probePerSecond);
    } finally {
      serviceExitCodes.push(await service.stop());
    }
  }

  return workersReport(workers, { ...(throughput ? { throughput } : {}), ...(saturation ? { saturation } : {}), serviceExitCodes });
}
