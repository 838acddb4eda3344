import { processTreeCpuSeconds } from './lib/process-cpu.ts';
import { runLevel } from './load-client.ts';
import type { ProbeProcess } from './load-probe.ts';
import { saturationReport, throughputReport, type SaturationReport, type ThroughputReport, type ThroughputRound } from './load-report.ts';
import { startService, type RunningService } from './load-service.ts';
import { nextCalculation, nextFloodRequest } from './load-traffic.ts';

/** How the service is measured at each worker count. A duration of 0 skips its part. */
export interface FleetPlan {
  /** `CALC_CONCURRENCY` of every worker. */
  pool: number;
  warmupMs: number;
  /** Closed-loop clients sending calculations only, for how long in all, in how many rounds. */
  throughputClients: number;
  throughputMs: number;
  throughputRounds: number;
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

const serviceEnv = (workers: number, plan: FleetPlan) => ({ WEB_CONCURRENCY: String(workers), CALC_CONCURRENCY: String(plan.pool) });

/**
 * Calculation throughput at each worker count (`WEB_CONCURRENCY`), load shedding off as the levels
 * measure capacity. One service per count, all started first; then rounds in which each count
 * has its turn, so that other work on the machine weighs on every count alike. Resolves with a
 * report per count, in the order given, and the services' exit codes.
 */
export async function measureThroughput(workerCounts: readonly number[], plan: FleetPlan): Promise<{ reports: ThroughputReport[]; exitCodes: (number | null)[] }> {
  const services: RunningService[] = [];
  const exitCodes: (number | null)[] = [];
  const rounds: ThroughputRound[][] = workerCounts.map(() => []);
  const level = (url: string, durationMs: number, seed: number) => ({ url, concurrency: plan.throughputClients, durationMs, maxRequests: plan.maxRequests, seed, traffic: nextCalculation });
  try {
    for (const workers of workerCounts) services.push(await startService(serviceEnv(workers, plan)));
    if (plan.warmupMs > 0) for (const service of services) await runLevel(level(service.url, plan.warmupMs, plan.seed + 9999));
    for (let index = 0; index < plan.throughputRounds; index++) {
      for (const [position, service] of services.entries()) {
        const cpuBefore = processTreeCpuSeconds(service.pid);
        const outcome = await runLevel(level(service.url, plan.throughputMs / plan.throughputRounds, plan.seed + index));
        const cpuAfter = processTreeCpuSeconds(service.pid);
        rounds[position]!.push({ outcome, cpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore });
      }
    }
  } finally {
    for (const service of services) exitCodes.push(await service.stop());
  }
  return { reports: rounds.map((own) => throughputReport(own, rounds[0]!)), exitCodes };
}

/**
 * The service with `workers` worker processes and load shedding as it does it by default (or as
 * MAX_EVENT_LOOP_DELAY_MS says): the latency of a light request sent from another process and
 * another address, first on the idle service, then while a flood of calculations and new searches
 * saturates it.
 */
export async function measureSaturation(workers: number, plan: FleetPlan, probe: ProbeProcess): Promise<{ report: SaturationReport; exitCode: number | null }> {
  const service = await startService({ ...serviceEnv(workers, plan), MAX_EVENT_LOOP_DELAY_MS: process.env.MAX_EVENT_LOOP_DELAY_MS });
  let report: SaturationReport;
  let exitCode: number | null;
  try {
    const level = { url: service.url, maxRequests: plan.maxRequests, seed: plan.seed + workers };
    if (plan.warmupMs > 0) await runLevel({ ...level, concurrency: 10, durationMs: plan.warmupMs, calcSlots: plan.pool, seed: level.seed + 9999 });
    const probePlan = { url: service.url, path: plan.probePath, perSecond: plan.probePerSecond };
    const idle = await probe.run({ ...probePlan, durationMs: plan.probeIdleMs });
    const [flood, saturated] = await Promise.all([
      runLevel({ ...level, concurrency: plan.floodClients, durationMs: plan.saturationMs, traffic: nextFloodRequest }),
      probe.run({ ...probePlan, durationMs: plan.saturationMs }),
    ]);
    report = saturationReport(flood, idle, saturated, plan.probePerSecond);
  } finally {
    exitCode = await service.stop();
  }
  return { report, exitCode };
}
