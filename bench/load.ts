/**
 * Load bench: sustained mixed traffic (calculations on all three calculators, metadata, docs search)
 * from this process over loopback against the service running as its own process, at several
 * concurrency levels, with the server's heap read after a forced collection before and after each.
 * Then, for each worker count (WEB_CONCURRENCY), the service's calculation throughput (in rounds
 * taken in turn, with the CPU time it used), and the latency of a light request sent from another
 * process and address while a flood saturates the service.
 *
 *   npm run load                  table
 *   npm run load -- --json        JSON only
 *   options: --levels=1,10,50,200 --seconds=6 --max-requests=60000 --warmup-seconds=2
 *            --capacity-seconds=3 (0 skips the uncapped level) --seed=1 --strict (exit 1 on a MISS)
 *            --workers=1,2 --throughput-clients=32 --throughput-seconds=5 --throughput-rounds=5
 *            --saturation-seconds=5 --flood-clients=200 --probe-path=/api/v1/calculators --probe-rate=20
 *            --probe-idle-seconds=2
 *            (--levels=none or --workers=none skips that part; a duration of 0 skips its part)
 *   CALC_CONCURRENCY=n npm run load   run the service with another pool size (default 8, the service's)
 *
 * The service is started through bench/load-server.ts under --expose-gc, with RATE_LIMIT_MAX=0. It
 * has a fixed pool of calculation places and no queue, so in the measured levels the clients hold at
 * most as many calculations in flight as there are places (going over sends a metadata or docs
 * request instead) and every answer must be a 200. A last level of 200 clients that are not held
 * back shows the capacity refusals: there, and only there, calculations may get 503. Docs search may
 * 503 anywhere when the docs have no index; it is counted.
 *
 * The levels and the throughput runs have load shedding off (MAX_EVENT_LOOP_DELAY_MS=0): they measure
 * capacity. The saturation runs have it as the service does by default (or as MAX_EVENT_LOOP_DELAY_MS
 * says), since shedding is what keeps the light request quick; there the flood may get 503s that shed
 * load, and the light request must always get 200.
 */
import { availableParallelism, loadavg } from 'node:os';
import { runLevel } from './load-client.ts';
import { measureSaturation, measureThroughput, type FleetPlan } from './load-fleet.ts';
import { startProbeProcess } from './load-probe.ts';
import { formatLevels, formatWorkers, HEAP_TOLERANCE, levelReport, workersReport, type LevelReport, type WorkersReport } from './load-report.ts';
import { startService, type MemoryReading, type RunningService } from './load-service.ts';

function option(name: string, fallback: string): string {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

function numberOption(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number of at least 0`);
  return value;
}

const json = process.argv.includes('--json');
const strict = process.argv.includes('--strict');
/** A comma-separated list of whole numbers of at least 1, or `none`. */
function countsOption(name: string, fallback: string): number[] {
  const text = option(name, fallback);
  if (text === 'none') return [];
  const counts = text.split(',').map(Number);
  if (counts.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--${name} must be whole numbers of at least 1, comma-separated, or none`);
  return counts;
}

const levels = countsOption('levels', '1,10,50,200');
const workerCounts = countsOption('workers', '1,2');
const seconds = numberOption('seconds', 6);
const maxRequests = numberOption('max-requests', 60_000);
const warmupSeconds = numberOption('warmup-seconds', 2);
const capacitySeconds = numberOption('capacity-seconds', 3);
const seed = numberOption('seed', 1);
const probePath = option('probe-path', '/api/v1/calculators');
if (!probePath.startsWith('/')) throw new Error('--probe-path must be a path starting with /');
const probePerSecond = numberOption('probe-rate', 20);
if (probePerSecond <= 0) throw new Error('--probe-rate must be above 0');
/** Clients of the level that is not held back to the pool: calculations beyond the places get 503 by contract. */
const FLOOD = 200;
// The service's own default pool: the levels measure the service as deployed.
const POOL = Number(process.env.CALC_CONCURRENCY ?? 8);
const fleetPlan: FleetPlan = {
  pool: POOL,
  warmupMs: warmupSeconds * 1000,
  throughputClients: numberOption('throughput-clients', 32),
  throughputMs: numberOption('throughput-seconds', 5) * 1000,
  throughputRounds: numberOption('throughput-rounds', 5),
  floodClients: numberOption('flood-clients', FLOOD),
  saturationMs: numberOption('saturation-seconds', 5) * 1000,
  probePath,
  probePerSecond,
  probeIdleMs: numberOption('probe-idle-seconds', 2) * 1000,
  maxRequests,
  seed,
};
if (fleetPlan.throughputClients < 1 || fleetPlan.floodClients < 1 || fleetPlan.throughputRounds < 1) throw new Error('--throughput-clients, --throughput-rounds and --flood-clients must be at least 1');
const say = (line = '') => {
  if (!json) process.stdout.write(`${line}\n`);
};

/** Waits until the server has logged as many requests as the client saw answered, or gives up after a second. */
async function settledLogCount(service: RunningService, expected: number): Promise<number> {
  for (let waited = 0; waited < 1000 && service.logLines() < expected; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return service.logLines();
}

/** Runs one measured level against a running service. */
async function measuredLevel(
  service: RunningService,
  name: string,
  concurrency: number,
  durationMs: number,
  options: { calcConcurrency: number; calcSlots: number | null; allowCapacity: boolean; levelSeed: number },
): Promise<LevelReport> {
  const start = await service.memory();
  const loggedBefore = service.logLines();
  const outcome = await runLevel({ url: service.url, concurrency, durationMs, maxRequests, seed: options.levelSeed, ...(options.calcSlots === null ? {} : { calcSlots: options.calcSlots }) });
  const logged = (await settledLogCount(service, loggedBefore + outcome.latencies.length)) - loggedBefore;
  // Let the server see the client's sockets close before reading its heap.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const end = await service.memory();
  const report = levelReport(name, outcome, { start, end }, { ...options, serverLogged: logged });
  say(formatLevels([report]).split('\n').slice(1).join('\n').trimEnd());
  return report;
}

/** The mixed-traffic levels on one service, then the uncapped level: reports, boot memory, exit code. */
async function runLevels(): Promise<{ reports: LevelReport[]; boot: MemoryReading; exitCode: number | null }> {
  const reports: LevelReport[] = [];
  say(`load: levels ${levels.join(', ')} for ${seconds} s or ${maxRequests} requests each, pool ${POOL}, clients holding at most ${POOL} calculations;`);
  say(`then ${FLOOD} clients not held back for ${capacitySeconds} s, where 503 for capacity is the contract`);
  say(formatLevels([]).trimEnd());

  const service = await startService({ CALC_CONCURRENCY: String(POOL) });
  const boot = await service.memory();
  let exitCode: number | null;
  try {
    // Warm-up, not reported: one-time work (JIT, lazily built caches, parser pools) would otherwise
    // read as growth in the first level.
    if (warmupSeconds > 0) await runLevel({ url: service.url, concurrency: 10, durationMs: warmupSeconds * 1000, maxRequests, seed: seed + 9999, calcSlots: POOL });
    for (const [index, concurrency] of levels.entries()) {
      reports.push(await measuredLevel(service, `c${concurrency}`, concurrency, seconds * 1000, { calcConcurrency: POOL, calcSlots: POOL, allowCapacity: false, levelSeed: seed + index }));
    }
    if (capacitySeconds > 0) {
      reports.push(
        await measuredLevel(service, `c${FLOOD} uncapped (503 ok)`, FLOOD, capacitySeconds * 1000, { calcConcurrency: POOL, calcSlots: null, allowCapacity: true, levelSeed: seed + 100 }),
      );
    }
  } finally {
    exitCode = await service.stop();
  }
  return { reports, boot, exitCode };
}

/** Throughput at every worker count in rounds, then each worker count under a flood, with one probe process for all. */
async function runWorkers(): Promise<WorkersReport[]> {
  const { throughputClients, throughputMs, throughputRounds, floodClients, saturationMs } = fleetPlan;
  say();
  say(`workers ${workerCounts.join(', ')} (WEB_CONCURRENCY), pool ${POOL} each: ${throughputClients} clients sending calculations only for ${throughputMs / 1000} s in ${throughputRounds} rounds, load shedding off;`);
  say(`then, load shedding as configured, GET ${probePath} at ${probePerSecond}/s from another process and address, ${fleetPlan.probeIdleMs / 1000} s idle and ${saturationMs / 1000} s under ${floodClients} clients flooding calculations and new searches`);
  const throughput = throughputMs > 0 ? await measureThroughput(workerCounts, fleetPlan) : undefined;
  const runs: WorkersReport[] = [];
  const probe = saturationMs > 0 ? await startProbeProcess() : undefined;
  try {
    for (const [index, workers] of workerCounts.entries()) {
      const saturation = probe ? await measureSaturation(workers, fleetPlan, probe) : undefined;
      const serviceExitCodes = [...(throughput ? [throughput.exitCodes[index]!] : []), ...(saturation ? [saturation.exitCode] : [])];
      runs.push(workersReport(workers, { ...(throughput ? { throughput: throughput.reports[index]! } : {}), ...(saturation ? { saturation: saturation.report } : {}), serviceExitCodes }));
    }
  } finally {
    probe?.close();
  }
  say(formatWorkers(runs).trimEnd());
  return runs;
}

async function main(): Promise<number> {
  const started = performance.now();
  const loadAverageBefore = loadavg();
  say(`load average before: ${loadAverageBefore.map((load) => load.toFixed(2)).join(', ')} (1, 5, 15 min) on ${availableParallelism()} cores`);
  const levelsRun = levels.length > 0 ? await runLevels() : undefined;
  const workers = workerCounts.length > 0 ? await runWorkers() : [];
  const reports = levelsRun?.reports ?? [];
  const overall = reports.length > 0 ? { start: reports[0]!.memory.start.heapUsed, end: reports.at(-1)!.memory.end.heapUsed } : undefined;

  const overallRatio = overall ? overall.end / overall.start : 1;
  const overallVerdict = !overall || overall.end <= Math.max(overall.start * HEAP_TOLERANCE.ratio, overall.start + HEAP_TOLERANCE.bytes) ? 'PASS' : 'MISS';
  const pass =
    reports.every((report) => report.statusVerdict === 'PASS' && report.heapVerdict === 'PASS') &&
    overallVerdict === 'PASS' &&
    (levelsRun === undefined || levelsRun.exitCode === 0) &&
    workers.every((run) => run.verdict === 'PASS');
  const summary = {
    cores: availableParallelism(),
    loadAverage: { before: loadAverageBefore, after: loadavg() },
    levels: reports,
    bootMemory: levelsRun?.boot,
    heapAcrossLevels: overall ? { start: overall.start, end: overall.end, ratio: Math.round(overallRatio * 1000) / 1000, verdict: overallVerdict } : undefined,
    heapTolerance: HEAP_TOLERANCE,
    serviceExitCode: levelsRun?.exitCode,
    workers,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    verdict: pass ? 'PASS' : 'MISS',
  };
  if (json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else {
    if (overall) say(`heap across levels: ${(overall.start / 1048576).toFixed(1)} → ${(overall.end / 1048576).toFixed(1)} MiB (ratio ${overallRatio.toFixed(3)}; tolerance ×${HEAP_TOLERANCE.ratio} or +${HEAP_TOLERANCE.bytes / 1048576} MiB) ${overallVerdict}`);
    if (levelsRun) {
      const { boot, exitCode } = levelsRun;
      say(`service exit code after SIGTERM: ${exitCode}; boot heap ${(boot.heapUsed / 1048576).toFixed(1)} MiB, rss ${(boot.rss / 1048576).toFixed(1)} MiB`);
    }
    say(`load average after: ${summary.loadAverage.after.map((load) => load.toFixed(2)).join(', ')}; ${summary.seconds} s in all`);
    say(`${summary.verdict}`);
  }
  return strict && !pass ? 1 : 0;
}

process.exitCode = await main();
