import { median } from './lib/measure.ts';
import { quantile, type LevelOutcome } from './load-client.ts';
import type { ProbeOutcome } from './load-probe.ts';
import type { MemoryReading } from './load-service.ts';

/** How much the server's heap may grow over a level before it counts as not returning (see `heapVerdict`). */
export const HEAP_TOLERANCE = { ratio: 1.1, bytes: 2 * 1024 * 1024 };

/** One reported level: throughput, latency, answers, memory and verdicts. */
export interface LevelReport {
  name: string;
  concurrency: number;
  calcConcurrency: number;
  /** Most calculations the clients held in flight; null when they were not held back. */
  calcSlots: number | null;
  requests: number;
  /** Share of the requests that were calculations, and calculations answered 200 per second. */
  calcShare: number;
  calcOkPerSecond: number;
  seconds: number;
  rps: number;
  latencyMs: { p50: number; p99: number; max: number };
  slowest: LevelOutcome['slowest'];
  serverLoopDelayMs: { p99: number; max: number };
  statuses: Record<string, number>;
  refusals: Record<string, number>;
  serverLogged: number;
  memory: { start: MemoryReading; end: MemoryReading; heapRatio: number; heapGrowthBytes: number };
  statusVerdict: 'PASS' | 'MISS';
  heapVerdict: 'PASS' | 'MISS';
  notes: string[];
}

/** Refusals a level may have and still pass: docs search without an index always; capacity only where asked for. */
export function unexpectedRefusals(refusals: Record<string, number>, allowCapacity: boolean): string[] {
  return Object.keys(refusals).filter((key) => {
    if (/^GET docs search -> 503 DocsSearchUnavailable$/.test(key)) return false;
    if (allowCapacity && /^calculate \S+ -> 503 CalculatorCapacityExceeded$/.test(key)) return false;
    return true;
  });
}

/**
 * PASS when the heap after the level, after a full collection, is back within 10% or 2 MiB (whichever
 * is larger) of where it started. The margin covers what a warm server legitimately keeps growing for
 * a while (optimised code and feedback, the HTTP parser free list, interned strings), while a leak
 * of a few dozen bytes per request crosses it within a level or over all of them (bench/README.md,
 * "Figures behind the code").
 */
export function heapVerdict(start: MemoryReading, end: MemoryReading): 'PASS' | 'MISS' {
  return end.heapUsed <= Math.max(start.heapUsed * HEAP_TOLERANCE.ratio, start.heapUsed + HEAP_TOLERANCE.bytes) ? 'PASS' : 'MISS';
}

/** Builds a level's report from the client outcome and the server readings. */
export function levelReport(
  name: string,
  outcome: LevelOutcome,
  memory: { start: MemoryReading; end: MemoryReading },
  options: { calcConcurrency: number; calcSlots: number | null; allowCapacity: boolean; serverLogged: number },
): LevelReport {
  const answered = outcome.latencies.length;
  const unexpected = unexpectedRefusals(outcome.refusals, options.allowCapacity);
  const notes: string[] = [];
  if (unexpected.length > 0) notes.push(`unexpected answers: ${unexpected.join('; ')}`);
  if (options.serverLogged !== answered) notes.push(`the server logged ${options.serverLogged} requests, the client counted ${answered} answers`);
  if (options.allowCapacity && !Object.keys(outcome.refusals).some((key) => key.includes('CalculatorCapacityExceeded'))) {
    notes.push('no calculation was refused for capacity: the level did not exercise the 503 path');
  }
  return {
    name,
    concurrency: outcome.concurrency,
    calcConcurrency: options.calcConcurrency,
    calcSlots: options.calcSlots,
    requests: outcome.requests,
    calcShare: round(outcome.calculations / Math.max(1, outcome.requests), 3),
    calcOkPerSecond: round(outcome.calculationsOk / (outcome.elapsedMs / 1000), 0),
    seconds: round(outcome.elapsedMs / 1000, 2),
    rps: round(answered / (outcome.elapsedMs / 1000), 0),
    latencyMs: { p50: round(quantile(outcome.latencies, 0.5), 2), p99: round(quantile(outcome.latencies, 0.99), 2), max: round(quantile(outcome.latencies, 1), 2) },
    slowest: outcome.slowest && {
      ...outcome.slowest,
      sentAtMs: round(outcome.slowest.sentAtMs, 0),
      latencyMs: round(outcome.slowest.latencyMs, 2),
      ...(outcome.slowest.connectMs === undefined ? {} : { connectMs: round(outcome.slowest.connectMs, 2) }),
    },
    // The reading taken after the level covers the level: the one before it reset the monitor.
    serverLoopDelayMs: { p99: round(memory.end.loopDelay.p99, 1), max: round(memory.end.loopDelay.max, 1) },
    statuses: outcome.statuses,
    refusals: outcome.refusals,
    serverLogged: options.serverLogged,
    memory: {
      ...memory,
      heapRatio: round(memory.end.heapUsed / memory.start.heapUsed, 3),
      heapGrowthBytes: memory.end.heapUsed - memory.start.heapUsed,
    },
    statusVerdict: unexpected.length === 0 && answered === outcome.requests ? 'PASS' : 'MISS',
    heapVerdict: heapVerdict(memory.start, memory.end),
    notes,
  };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)}`;

/** The levels as a plain-text table, one block per level. */
export function formatLevels(levels: readonly LevelReport[]): string {
  const lines: string[] = [];
  lines.push('level                  conc pool  cap calc%  requests      rps   p50 ms   p99 ms   max ms  heap MiB start→end (ratio)  rss MiB start→end  status heap');
  for (const level of levels) {
    const { start, end, heapRatio } = level.memory;
    lines.push(
      [
        level.name.padEnd(21),
        String(level.concurrency).padStart(5),
        String(level.calcConcurrency).padStart(4),
        (level.calcSlots === null ? '-' : String(level.calcSlots)).padStart(4),
        (level.calcShare * 100).toFixed(0).padStart(5),
        String(level.requests).padStart(9),
        String(level.rps).padStart(8),
        level.latencyMs.p50.toFixed(2).padStart(8),
        level.latencyMs.p99.toFixed(2).padStart(8),
        level.latencyMs.max.toFixed(2).padStart(8),
        `  ${mib(start.heapUsed)}→${mib(end.heapUsed)} (${heapRatio.toFixed(3)})`.padEnd(28),
        `${mib(start.rss)}→${mib(end.rss)}`.padStart(17),
        `  ${level.statusVerdict}`,
        ` ${level.heapVerdict}`,
      ].join(' '),
    );
    lines.push(`    statuses: ${Object.entries(level.statuses).map(([status, n]) => `${status}×${n}`).join(', ')}; calculations answered 200: ${level.calcOkPerSecond}/s`);
    if (level.slowest) {
      const { kind, sentAtMs, latencyMs, reusedSocket, connectMs } = level.slowest;
      const connection = reusedSocket ? 'a kept-alive connection' : `a new connection (TCP handshake done after ${connectMs?.toFixed(1) ?? '?'} ms)`;
      lines.push(`    slowest: ${kind}, sent ${sentAtMs} ms into the level on ${connection}, ${latencyMs} ms`);
    }
    lines.push(`    server event-loop delay during the level: p99 ${level.serverLoopDelayMs.p99} ms, max ${level.serverLoopDelayMs.max} ms`);
    for (const [what, n] of Object.entries(level.refusals)) lines.push(`    ${what}: ${n}`);
    for (const note of level.notes) lines.push(`    note: ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Refusals that are load shedding: a saturated service refuses calculations and new searches at once. */
const SHED = /^.* -> 503 (CalculatorCapacityExceeded|DocsSearchUnavailable)$/;

/** Calculation throughput of the service with a number of worker processes. */
export interface ThroughputReport {
  clients: number;
  /** Measured time in all, over `rounds` stretches taken in turn with the other worker counts. */
  seconds: number;
  rounds: number;
  calcOkPerSecond: number;
  /**
   * Calculations answered 200 a second against the first worker count, the median over rounds of
   * the ratio within each round: other work on the machine changes less between two adjacent
   * stretches than across the whole run.
   */
  ratioToFirst: number;
  /** CPU time the service's processes used while measured, and calculations answered 200 per CPU second; null where it cannot be read. */
  cpuSeconds: number | null;
  calcOkPerCpuSecond: number | null;
  latencyMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  refusals: Record<string, number>;
}

/** One stretch of the throughput measurement: what the clients got, and the service's CPU time meanwhile. */
export interface ThroughputRound {
  outcome: LevelOutcome;
  cpuSeconds: number | undefined;
}

/** The light request's latency over one stretch of time. */
export interface ProbeReport {
  sent: number;
  answered: number;
  latencyMs: { p50: number; p99: number; max: number };
  /** Answers to requests that had to open a connection, and their latency: a new connection may wait longer than a kept-alive one. */
  newConnections: number;
  newConnectionLatencyMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  sendLagMaxMs: number;
}

/** A light request's latency while a flood saturates the service, against the same request on the idle service. */
export interface SaturationReport {
  floodClients: number;
  seconds: number;
  flood: { requests: number; ok: number; shed: number; other: number; calcOkPerSecond: number; latencyMs: { p50: number; p99: number; max: number }; refusals: Record<string, number> };
  probe: { path: string; perSecond: number; idle: ProbeReport; saturated: ProbeReport; p99RatioToIdle: number };
}

/** One worker count's figures. */
export interface WorkersReport {
  workers: number;
  throughput?: ThroughputReport;
  saturation?: SaturationReport;
  serviceExitCodes: (number | null)[];
  verdict: 'PASS' | 'MISS';
  notes: string[];
}

function latencySummary(sorted: ArrayLike<number>): { p50: number; p99: number; max: number } {
  const values = Float64Array.from(sorted);
  return { p50: round(quantile(values, 0.5), 2), p99: round(quantile(values, 0.99), 2), max: round(quantile(values, 1), 2) };
}

/**
 * The throughput report of one worker count from its rounds; `firstRounds` are the first worker
 * count's, taken in turn with these (the same rounds when this is the first).
 */
export function throughputReport(rounds: readonly ThroughputRound[], firstRounds: readonly ThroughputRound[]): ThroughputReport {
  const rate = (stretch: ThroughputRound) => stretch.outcome.calculationsOk / (stretch.outcome.elapsedMs / 1000);
  const ok = rounds.reduce((sum, stretch) => sum + stretch.outcome.calculationsOk, 0);
  const elapsedMs = rounds.reduce((sum, stretch) => sum + stretch.outcome.elapsedMs, 0);
  const cpu = rounds.every((stretch) => stretch.cpuSeconds !== undefined) ? rounds.reduce((sum, stretch) => sum + stretch.cpuSeconds!, 0) : null;
  const latencies = Float64Array.from(rounds.flatMap((stretch) => Array.from(stretch.outcome.latencies))).sort();
  const statuses: Record<string, number> = {};
  const refusals: Record<string, number> = {};
  for (const stretch of rounds) {
    for (const [key, n] of Object.entries(stretch.outcome.statuses)) statuses[key] = (statuses[key] ?? 0) + n;
    for (const [key, n] of Object.entries(stretch.outcome.refusals)) refusals[key] = (refusals[key] ?? 0) + n;
  }
  return {
    clients: rounds[0]!.outcome.concurrency,
    seconds: round(elapsedMs / 1000, 2),
    rounds: rounds.length,
    calcOkPerSecond: round(ok / (elapsedMs / 1000), 0),
    ratioToFirst: round(median(rounds.map((one, index) => rate(one) / rate(firstRounds[index]!))), 2),
    cpuSeconds: cpu === null ? null : round(cpu, 2),
    calcOkPerCpuSecond: cpu === null || cpu === 0 ? null : round(ok / cpu, 0),
    latencyMs: latencySummary(latencies),
    statuses,
    refusals,
  };
}

/** The probe's outcome over one stretch, summarised. */
export function probeReport(outcome: ProbeOutcome): ProbeReport {
  return {
    sent: outcome.sent,
    answered: outcome.latencies.length,
    latencyMs: latencySummary(outcome.latencies),
    newConnections: outcome.newConnectionLatencies.length,
    newConnectionLatencyMs: latencySummary(outcome.newConnectionLatencies),
    statuses: outcome.statuses,
    sendLagMaxMs: round(outcome.sendLagMaxMs, 1),
  };
}

/** The saturation stretch's report: what the flood got (answered, shed, anything else) and what the probe saw. */
export function saturationReport(flood: LevelOutcome, idle: ProbeOutcome, saturated: ProbeOutcome, perSecond: number): SaturationReport {
  const shed = Object.entries(flood.refusals).reduce((sum, [key, n]) => (SHED.test(key) ? sum + n : sum), 0);
  const ok = flood.statuses['200'] ?? 0;
  const idleReport = probeReport(idle);
  const saturatedReport = probeReport(saturated);
  return {
    floodClients: flood.concurrency,
    seconds: round(flood.elapsedMs / 1000, 2),
    flood: { requests: flood.requests, ok, shed, other: flood.requests - ok - shed, calcOkPerSecond: round(flood.calculationsOk / (flood.elapsedMs / 1000), 0), latencyMs: latencySummary(flood.latencies), refusals: flood.refusals },
    probe: {
      path: saturated.path,
      perSecond,
      idle: idleReport,
      saturated: saturatedReport,
      p99RatioToIdle: round(saturatedReport.latencyMs.p99 / Math.max(idleReport.latencyMs.p99, 0.01), 1),
    },
  };
}

/**
 * PASS when every answer is one the contract allows for what was asked: calculations all 200 at
 * the throughput level; under the flood, 200 or a 503 that sheds load, and every probe answered 200;
 * and every service stopped cleanly. Latency has no threshold here: it is reported.
 */
export function workersReport(workers: number, parts: { throughput?: ThroughputReport; saturation?: SaturationReport; serviceExitCodes: (number | null)[] }): WorkersReport {
  const notes: string[] = [];
  const { throughput, saturation } = parts;
  if (throughput && Object.keys(throughput.refusals).length > 0) notes.push(`throughput: not every calculation was answered 200: ${Object.keys(throughput.refusals).join('; ')}`);
  if (saturation) {
    if (saturation.flood.other > 0) notes.push(`flood: answers other than 200 or a 503 that sheds load: ${Object.keys(saturation.flood.refusals).filter((key) => !SHED.test(key)).join('; ')}`);
    for (const [when, probe] of [['idle', saturation.probe.idle], ['saturated', saturation.probe.saturated]] as const) {
      if (probe.answered !== probe.sent || (probe.statuses['200'] ?? 0) !== probe.sent) notes.push(`probe (${when}): not every request was answered 200`);
    }
    if (saturation.flood.shed === 0) notes.push('flood: nothing was shed; the flood did not saturate the service');
  }
  if (parts.serviceExitCodes.some((code) => code !== 0)) notes.push(`service exit codes after SIGTERM: ${parts.serviceExitCodes.join(', ')}`);
  const miss = notes.some((note) => !note.startsWith('flood: nothing was shed'));
  return { workers, ...parts, verdict: miss ? 'MISS' : 'PASS', notes };
}

const thousands = (n: number) => n.toLocaleString('en-AU');

/** The worker-count runs as plain text: throughput first, then the light request under a flood. */
export function formatWorkers(runs: readonly WorkersReport[]): string {
  const lines: string[] = [];
  const throughputs = runs.filter((run) => run.throughput);
  if (throughputs.length > 0) {
    lines.push('workers  clients  calculations 200/s  vs first  per CPU second   p50 ms   p99 ms   max ms  statuses');
    for (const { workers, throughput: t } of throughputs) {
      lines.push(
        [
          String(workers).padStart(7),
          String(t!.clients).padStart(8),
          thousands(t!.calcOkPerSecond).padStart(19),
          `×${t!.ratioToFirst.toFixed(2)}`.padStart(9),
          (t!.calcOkPerCpuSecond === null ? '-' : thousands(t!.calcOkPerCpuSecond)).padStart(15),
          t!.latencyMs.p50.toFixed(2).padStart(8),
          t!.latencyMs.p99.toFixed(2).padStart(8),
          t!.latencyMs.max.toFixed(2).padStart(8),
          ` ${Object.entries(t!.statuses).map(([status, n]) => `${status}×${n}`).join(', ')}`,
        ].join(' '),
      );
    }
  }
  for (const run of runs) {
    const s = run.saturation;
    if (!s) continue;
    const { idle, saturated } = s.probe;
    lines.push(`workers ${run.workers}, ${s.floodClients} flood clients for ${s.seconds} s: ${thousands(s.flood.requests)} requests, ${thousands(s.flood.ok)} answered 200, ${thousands(s.flood.shed)} shed (503), ${s.flood.other} other; calculations answered 200: ${thousands(s.flood.calcOkPerSecond)}/s; flood p50 ${s.flood.latencyMs.p50} ms, p99 ${s.flood.latencyMs.p99} ms`);
    lines.push(`    GET ${s.probe.path} at ${s.probe.perSecond}/s from another process: idle p50 ${idle.latencyMs.p50} ms, p99 ${idle.latencyMs.p99} ms (${idle.answered} answers);`);
    lines.push(`    under the flood p50 ${saturated.latencyMs.p50} ms, p99 ${saturated.latencyMs.p99} ms, max ${saturated.latencyMs.max} ms (${saturated.answered}/${saturated.sent} answered, ${Object.entries(saturated.statuses).map(([status, n]) => `${status}×${n}`).join(', ')}); p99 ×${s.probe.p99RatioToIdle} idle;`);
    lines.push(`    of them ${saturated.newConnections} on a new connection: p50 ${saturated.newConnectionLatencyMs.p50} ms, p99 ${saturated.newConnectionLatencyMs.p99} ms; the probe sent at most ${saturated.sendLagMaxMs} ms late`);
    for (const [what, n] of Object.entries(s.flood.refusals)) lines.push(`    ${what}: ${n}`);
  }
  for (const run of runs) {
    for (const note of run.notes) lines.push(`    note (workers ${run.workers}): ${note}`);
    if (run.verdict === 'MISS') lines.push(`workers ${run.workers}: MISS`);
  }
  return `${lines.join('\n')}\n`;
}
