/**
 * HTTP bench: requests/s and latency at 50 keep-alive connections for the real service (started as
 * `npm start` does, in its own process) and for a bare node:http server, also in its own process,
 * that replays a captured response of the same route byte for byte, and for calculate a bare
 * node:http server around the service's own calculation (the ceiling of any request path). The
 * load generator (autocannon, programmatic) runs here, in another process.
 *
 *   npm run bench:http                  table
 *   npm run -s bench:http -- --json     JSON only
 *   options: --duration=8 --warmup=3 --calc-warmup=10 --connections=50
 *            --wide (also run the service with CALC_CONCURRENCY=<connections>: slow to start, ~2.5 GB)
 *            --pin (servers on cpu 0, load generator on cpu 1) --profile[=dir] (CPU profile of the service)
 *            --server=<dist/server.js of another build> (A/B: run that build instead of building this one)
 *            --baseline=<git revision> (also run that revision's service on calculate, and print the ratio)
 *            --rounds=5 (then that many rounds of calculate on the service and the bare replay in turn,
 *                        each pair back to back; the ratio targets are judged on the median pair;
 *                        --rounds=1 skips them and judges the single runs)
 *
 * It ends with a 1,000-item pay run against the same 1,000 single requests, by server CPU
 * (`npm run bench:pay-run` runs that comparison alone).
 *
 * The machine's cores are shared: the load generator needs most of one. The service's calculate
 * scenario warms up longer because each of its worker threads is a V8 isolate that warms up alone.
 */
import autocannon, { type Request, type Result } from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './lib/free-port.ts';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatSummary, loadSourceMapsFor, summarizeProfile, type CpuProfile } from './lib/cpuprofile.ts';
import { prepareDirectTakeHome, type PayFacts } from './lib/direct.ts';
import { mixedPayRunWork, takeHomeInputs } from './lib/inputs.ts';
import { payRunCpu, type PayRunCpu } from './lib/pay-run-cpu.ts';
import { median } from './lib/measure.ts';
import { send } from './lib/send.ts';
import { loadShipped, PROJECT_ROOT } from './lib/packs.ts';
import type { CapturedResponse } from './replay-server.ts';
import { checkOutRevision } from './lib/revision.ts';
import { readStartCommand } from './lib/start-command.ts';
import { benchWorkDir } from './lib/work-dir.ts';

// The resident-size target is judged by bench:boot, over a sustained load: a run this short reads too low.
const TARGETS = { ratio: 0.42, perSec: 10_000, p99Ms: 10 };
const CALCULATE_PATH = '/api/v1/calculators/au.pay.take-home/calculate';
const LIST_PATH = '/api/v1/calculators';

const argument = (name: string) => process.argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
const numberOption = (name: string, fallback: number) => {
  const found = argument(name);
  if (!found || !found.includes('=')) return fallback;
  const value = Number(found.split('=')[1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const json = Boolean(argument('json'));
const durationS = numberOption('duration', 8);
const warmupS = numberOption('warmup', 3);
const calcWarmupS = numberOption('calc-warmup', 10);
const connections = numberOption('connections', 50);
const rounds = Math.floor(numberOption('rounds', 5));
const wide = Boolean(argument('wide'));
const pin = Boolean(argument('pin'));
const profileArg = argument('profile');
/** `--server=<file>`: run this compiled service instead of building and running dist/server.js (an A/B against another build). */
const serverArg = argument('server');
const serverFile = serverArg?.includes('=') ? serverArg.split('=')[1]! : undefined;
/** `--baseline=<revision>`: that revision's service, measured on calculate in the same run. */
const baselineArg = argument('baseline');
const baselineRevision = baselineArg?.includes('=') ? baselineArg.split('=')[1]! : undefined;
const profileDir = profileArg ? (profileArg.includes('=') ? profileArg.split('=')[1]! : join(tmpdir(), 'tax-rules-bench-profiles', 'http')) : undefined;
const say = (line = '') => {
  if (!json) process.stdout.write(`${line}\n`);
};

// ---- processes -------------------------------------------------------------------------------

const work = benchWorkDir('tax-rules-http-bench-');
const started = new Set<ChildProcess>();

/** Starts node with these arguments in its own process group, its output to a log file. */
function startNode(name: string, nodeArgs: string[], env: Record<string, string>, cwd = PROJECT_ROOT): { child: ChildProcess; log: string } {
  const log = join(work, `${name}.log`);
  const out = openSync(log, 'w');
  const command = pin ? 'taskset' : process.execPath;
  const args = [...(pin ? ['-c', '0', process.execPath] : []), ...nodeArgs];
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out], detached: true });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return { child, log };
}

/** Stops a process group this bench started: SIGTERM, then SIGKILL after a grace period. */
async function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
  // Give a tsx child a moment to flush once its parent has gone (profiles are written at exit).
  await new Promise((resolve) => setTimeout(resolve, 300));
}

process.on('exit', () => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

/** Waits until the server answers (the list route, or a calculation) with 200; fails if the process exits first. */
async function ready(child: ChildProcess, port: number, log: string, timeoutMs = 90_000, path = LIST_PATH): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the process exited with ${child.exitCode} before it was ready:\n${readFileSync(log, 'utf8').slice(-2000)}`);
    try {
      const answer = path === LIST_PATH ? await send(port, 'GET', path) : await send(port, 'POST', path, JSON.stringify({ facts: factsOf(0) }));
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${readFileSync(log, 'utf8').slice(-2000)}`);
}

/** How `npm start` runs the service (node flags, environment), read from scripts/start.sh so the bench runs it the same way. */
const START = readStartCommand();

/** The compiled service, `node dist/server.js` as `npm start` runs it, with PORT and RATE_LIMIT_MAX=0 (node flags for profiling). */
async function startService(name: string, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<{ child: ChildProcess; port: number; log: string }> {
  const port = await freePort();
  const { child, log } = startNode(name, [...START.nodeFlags, ...nodeFlags, serverFile ?? 'dist/server.js'], { ...START.env, PORT: String(port), RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
  await ready(child, port, log);
  return { child, port, log };
}

// ---- load --------------------------------------------------------------------------------------

const { takeHome } = loadShipped();
const direct = prepareDirectTakeHome(takeHome);
const inputs = takeHomeInputs(takeHome, 4096, 7);

/** The facts of the n-th request: one of 4096 varied inputs, its gross pay moved by n / 4096 cents, so a run does not cycle. */
function factsOf(n: number): PayFacts {
  const base = inputs[n & 4095]!;
  return { ...base, grossPay: { ...base.grossPay, amount: { ...base.grossPay.amount, cents: base.grossPay.amount.cents + Math.floor(n / 4096) } } };
}

/** Request bodies made from a template with only the cents filled in, to keep the generator light. */
const bodyParts = inputs.map((facts) => {
  const text = JSON.stringify({ facts: { ...facts, grossPay: { ...facts.grossPay, amount: { ...facts.grossPay.amount, cents: -1 } } } });
  const [before, after] = text.split('-1') as [string, string];
  return { before, after, cents: facts.grossPay.amount.cents };
});
function calculateRequest(): Request {
  let n = 0;
  return {
    method: 'POST',
    path: CALCULATE_PATH,
    headers: { 'content-type': 'application/json' },
    setupRequest: (request) => {
      const part = bodyParts[n & 4095]!;
      const body = `${part.before}${part.cents + Math.floor(n / 4096)}${part.after}`;
      n++;
      return { ...request, body };
    },
  };
}
const listRequest = (): Request => ({ method: 'GET', path: LIST_PATH });

interface LoadResult {
  scenario: string;
  seconds: number;
  ok: number;
  okPerSec: number;
  /** Every response, whatever its status. */
  allPerSec: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  autocannon: { p50: number; p99: number; requestsPerSecAverage: number };
  /** CLOCK_MONOTONIC microseconds around the measured run, to cut a server profile to it. */
  window: { fromUs: number; toUs: number };
  /** The server's own CPU time (user + system) per 2xx answer in the measured run: less disturbed than rates by a busy machine. */
  cpuUsPer2xx: number;
  /** The part of it spent in the server's own code (user) and in the kernel on its behalf (system). */
  userUsPer2xx: number;
  systemUsPer2xx: number;
  /** The server's resident set at the end of the measured run, and its peak since start, in MB (Linux). */
  rssMB: number;
  peakRssMB: number;
}

/** CPU time a process has used so far, user and system, in microseconds (Linux /proc; NaN elsewhere). */
function cpuMicros(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields of the line, in clock ticks of 10 ms.
    return { user: Number(fields[11]) * 10_000, system: Number(fields[12]) * 10_000 };
  } catch {
    return { user: NaN, system: NaN };
  }
}

/** Resident and peak resident memory of a process in MB (Linux /proc; NaN elsewhere). */
function memoryMB(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kB = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kB('VmRSS') / 1024, peak: kB('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

async function load(scenario: string, port: number, pid: number, makeRequest: () => Request, warmup = warmupS): Promise<LoadResult> {
  // Warm-up at the same concurrency, discarded.
  await autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: warmup, requests: [makeRequest()] });
  const latencies: number[] = [];
  const instance = autocannon({ url: `http://127.0.0.1:${port}`, connections, duration: durationS, requests: [makeRequest()] });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const startedAt = performance.now();
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const cpuBefore = cpuMicros(pid);
  const result: Result = await instance;
  const cpuAfter = cpuMicros(pid);
  const userUsed = cpuAfter.user - cpuBefore.user;
  const systemUsed = cpuAfter.system - cpuBefore.system;
  const memory = memoryMB(pid);
  const toUs = Number(process.hrtime.bigint() / 1000n);
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! : NaN);
  const otherStatuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) if (!code.startsWith('2')) otherStatuses[code] = count;
  return {
    scenario,
    seconds,
    ok: result['2xx'],
    okPerSec: result['2xx'] / seconds,
    allPerSec: (result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx']) / seconds,
    otherStatuses,
    errors: result.errors,
    timeouts: result.timeouts,
    p50Ms: median(latencies),
    p90Ms: at(0.9),
    p99Ms: at(0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    autocannon: { p50: result.latency.p50, p99: result.latency.p99, requestsPerSecAverage: result.requests.average },
    window: { fromUs, toUs },
    cpuUsPer2xx: (userUsed + systemUsed) / result['2xx'],
    userUsPer2xx: userUsed / result['2xx'],
    systemUsPer2xx: systemUsed / result['2xx'],
    rssMB: memory.rss,
    peakRssMB: memory.peak,
  };
}

// ---- run ---------------------------------------------------------------------------------------

const results: LoadResult[] = [];
/** `--rounds`: each round's service, bare replay and bare engine server results, measured back to back. */
const roundPairs: { served: LoadResult; bare: LoadResult; engineOnly: LoadResult }[] = [];
let baselineLabel: string | undefined;
const loadBefore = loadavg()[0]!;
const notes: string[] = [];
let payRun: PayRunCpu | undefined;
const profileSections: string[] = [];
try {
  if (pin) {
    // This process is the load generator: move it to the other core.
    const self = spawn('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    await new Promise((resolve) => self.once('exit', resolve));
  }
  say(`HTTP bench: ${connections} keep-alive connections, ${durationS} s per scenario after ${warmupS} s warm-up (${calcWarmupS} s for the service's calculate)${pin ? ', servers on cpu 0, load generator on cpu 1' : ', unpinned (2 cores shared with the load generator)'}.`);

  // 1. The service, as `npm start` runs it (compiled first, so the bundle is the current sources'):
  // a fresh process per scenario, so each profile is one route's.
  if (!serverFile) {
    const built = spawnSync(process.execPath, ['scripts/build.js'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the build failed');
  }
  const profileFlags = (scenario: string): string[] => {
    if (!profileDir) return [];
    const dir = join(profileDir, scenario);
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir)) if (file.endsWith('.cpuprofile')) rmSync(join(dir, file));
    return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  };
  const profileSection = async (scenario: string, window: LoadResult['window']) => {
    if (!profileDir) return;
    const dir = join(profileDir, scenario);
    // The busiest thread is the service's main thread (the calculation workers are started without
    // the profiler flags).
    let best: { file: string; summary: ReturnType<typeof summarizeProfile> } | undefined;
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
      await loadSourceMapsFor(profile);
      const summary = summarizeProfile(profile, 60, undefined, window);
      if (!best || summary.busyMs > best.summary.busyMs) best = { file, summary };
    }
    if (best) profileSections.push(formatSummary(`service main thread, ${scenario}, measured run only (${join(dir, best.file)})`, best.summary, 25));
  };

  const service = await startService('service-calculate', {}, profileFlags('calculate'));
  say(`service up on port ${service.port} (its log, kept if the bench fails: ${service.log})`);

  // Capture one calculate response and the list response, and check a sample of varied answers.
  const capturedFacts = factsOf(0);
  const capturedCalculate = await send(service.port, 'POST', CALCULATE_PATH, JSON.stringify({ facts: capturedFacts }));
  const capturedList = await send(service.port, 'GET', LIST_PATH);
  if (capturedCalculate.status !== 200 || capturedList.status !== 200) throw new Error(`capture failed: ${capturedCalculate.status} ${capturedList.status}`);
  for (const n of [1, 2, 3, 4097, 8191, 123_457]) {
    const facts = factsOf(n);
    const reply = await send(service.port, 'POST', CALCULATE_PATH, JSON.stringify({ facts }));
    const served = JSON.parse(reply.body.toString('utf8')) as { report: { netPay: { cents: number } } };
    const expected = direct.compute(facts).netPay;
    if (reply.status !== 200 || served.report.netPay.cents !== expected) throw new Error(`the service answered ${reply.status} / net pay ${served.report?.netPay?.cents} for request ${n}, expected ${expected}`);
  }
  const calculated = await load('service calculate', service.port, service.child.pid!, calculateRequest, calcWarmupS);
  results.push(calculated);
  await stop(service.child);
  await profileSection('calculate', calculated.window);

  if (baselineRevision) {
    const revision = checkOutRevision(baselineRevision, work);
    baselineLabel = revision.label;
    const port = await freePort();
    const baseline = startNode('baseline-calculate', revision.nodeArgs, { ...revision.env, PORT: String(port), RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0' }, revision.cwd);
    await ready(baseline.child, port, baseline.log);
    results.push(await load('baseline calculate', port, baseline.child.pid!, calculateRequest, calcWarmupS));
    await stop(baseline.child);
  }

  const listService = await startService('service-list', {}, profileFlags('list'));
  const listed = await load('service list', listService.port, listService.child.pid!, listRequest);
  results.push(listed);
  await stop(listService.child);
  await profileSection('list', listed.window);
  if (profileDir) notes.push(`CPU profiles of the service: ${profileDir}/{calculate,list}`);

  // 2. The bare replay server, with the captured bytes.
  const replayFile = join(work, 'captured.json');
  const strip = (headers: [string, string][]) => headers.filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase()));
  const captured: CapturedResponse[] = [
    { method: 'POST', path: CALCULATE_PATH, status: capturedCalculate.status, headers: strip(capturedCalculate.headers), bodyBase64: capturedCalculate.body.toString('base64') },
    { method: 'GET', path: LIST_PATH, status: capturedList.status, headers: strip(capturedList.headers), bodyBase64: capturedList.body.toString('base64') },
  ];
  writeFileSync(replayFile, JSON.stringify(captured));
  const replayPort = await freePort();
  // Node itself, with tsx as a hook, so that the process measured is the server.
  const replay = startNode('replay', ['--import', 'tsx', 'bench/replay-server.ts'], { PORT: String(replayPort), REPLAY_FILE: replayFile });
  await ready(replay.child, replayPort, replay.log);
  const replayed = await send(replayPort, 'POST', CALCULATE_PATH, JSON.stringify({ facts: capturedFacts }));
  if (!replayed.body.equals(capturedCalculate.body) || JSON.stringify(strip(replayed.headers)) !== JSON.stringify(strip(capturedCalculate.headers))) {
    throw new Error('the replay server does not give back the captured response');
  }
  results.push(await load('bare replay calculate', replayPort, replay.child.pid!, calculateRequest));
  results.push(await load('bare replay list', replayPort, replay.child.pid!, listRequest));
  await stop(replay.child);

  // 3. A bare node:http server around the service's calculation: the best any request path could do.
  const enginePort = await freePort();
  const engine = startNode('engine', ['--import', 'tsx', 'bench/engine-server.ts'], { PORT: String(enginePort), REPLAY_FILE: replayFile });
  await ready(engine.child, enginePort, engine.log, 90_000, CALCULATE_PATH);
  const computed = await send(enginePort, 'POST', CALCULATE_PATH, JSON.stringify({ facts: capturedFacts }));
  if (!computed.body.equals(capturedCalculate.body)) throw new Error(`the bare engine server's answer is not the service's`);
  results.push(await load('bare engine calculate', enginePort, engine.child.pid!, calculateRequest, calcWarmupS));
  await stop(engine.child);

  // 4. Rounds: calculate on the service, the bare replay and the bare engine server in turn, all
  // three up and warm. The machine's other work moves a rate from one minute to the next (README.md);
  // runs back to back share most of it, and the median of several rounds is steadier than one.
  if (rounds > 1) {
    const service = await startService('service-rounds');
    await load('service calculate, warm-up for the rounds', service.port, service.child.pid!, calculateRequest, calcWarmupS);
    const replayAgain = startNode('replay-rounds', ['--import', 'tsx', 'bench/replay-server.ts'], { PORT: String(replayPort), REPLAY_FILE: replayFile });
    await ready(replayAgain.child, replayPort, replayAgain.log);
    const engineAgain = startNode('engine-rounds', ['--import', 'tsx', 'bench/engine-server.ts'], { PORT: String(enginePort), REPLAY_FILE: replayFile });
    await ready(engineAgain.child, enginePort, engineAgain.log, 90_000, CALCULATE_PATH);
    await load('bare engine calculate, warm-up for the rounds', enginePort, engineAgain.child.pid!, calculateRequest, calcWarmupS);
    for (let round = 1; round <= rounds; round++) {
      const served = await load(`service calculate, round ${round}`, service.port, service.child.pid!, calculateRequest, 1);
      const bare = await load(`bare replay calculate, round ${round}`, replayPort, replayAgain.child.pid!, calculateRequest, 1);
      const engineOnly = await load(`bare engine calculate, round ${round}`, enginePort, engineAgain.child.pid!, calculateRequest, 1);
      roundPairs.push({ served, bare, engineOnly });
    }
    for (const child of [engineAgain.child, replayAgain.child, service.child]) await stop(child);
  }

  // 5. For the diagnosis: the service with as many calculation places as connections.
  if (wide) {
    const widened = await startService('service-wide', { CALC_CONCURRENCY: String(connections) });
    results.push(await load(`service calculate, CALC_CONCURRENCY=${connections}`, widened.port, widened.child.pid!, calculateRequest, Math.max(calcWarmupS, 20)));
    await stop(widened.child);
  }

  // 6. A pay run of 1,000 calculations against the same 1,000 as single requests, by server CPU.
  const payRunService = await startService('service-pay-runs', { API_EXTENSIONS: 'pay-runs' });
  const { catalog: shippedCatalog, annual: annualPlan } = loadShipped();
  const payPlans = shippedCatalog.plans.filter((plan) => plan.context.taxYear === takeHome.context.taxYear && plan.def.factsSchemaName === takeHome.def.factsSchemaName);
  payRun = await payRunCpu({ port: payRunService.port, pid: payRunService.child.pid!, work: mixedPayRunWork(payPlans, annualPlan, 1000), rounds: 5 });
  await stop(payRunService.child);
} finally {
  for (const child of [...started]) await stop(child);
}

// ---- report ------------------------------------------------------------------------------------

const loadAfter = loadavg()[0]!;
notes.push(`machine load average (1 min): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (this bench itself keeps ~2 busy)`);
const byName = (name: string) => results.find((result) => result.scenario === name)!;
const calc = byName('service calculate');
const list = byName('service list');
const replayCalc = byName('bare replay calculate');
const replayList = byName('bare replay list');
const engineCalc = byName('bare engine calculate');
const ratios = { calculate: calc.okPerSec / replayCalc.okPerSec, list: list.okPerSec / replayList.okPerSec, engine: engineCalc.okPerSec / replayCalc.okPerSec };
// Server CPU per answer, replay over service: the throughput ratio the two would have if each had a
// core to itself, which a busy shared machine disturbs far less than the rates.
const cpuRatios = { calculate: replayCalc.cpuUsPer2xx / calc.cpuUsPer2xx, list: replayList.cpuUsPer2xx / list.cpuUsPer2xx, engine: replayCalc.cpuUsPer2xx / engineCalc.cpuUsPer2xx };
// With rounds, the ratio targets are judged on the median of the pairs, not on the single run above.
const pairRatios = roundPairs.map(({ served, bare, engineOnly }) => ({
  rate: served.okPerSec / bare.okPerSec,
  cpu: bare.cpuUsPer2xx / served.cpuUsPer2xx,
  ofEngine: served.okPerSec / engineOnly.okPerSec,
  ofEngineByCpu: engineOnly.cpuUsPer2xx / served.cpuUsPer2xx,
}));
const judged =
  pairRatios.length > 0 ? { rate: median(pairRatios.map((pair) => pair.rate)), cpu: median(pairRatios.map((pair) => pair.cpu)), how: `, median of ${pairRatios.length} rounds` } : { rate: ratios.calculate, cpu: cpuRatios.calculate, how: '' };
const targets = [
  { target: `calculate ≥ ${TARGETS.ratio} of the bare replay (2xx/s${judged.how})`, value: judged.rate, unit: '×', pass: judged.rate >= TARGETS.ratio },
  { target: `calculate ≥ ${TARGETS.ratio} of the bare replay (server CPU per 2xx${judged.how})`, value: judged.cpu, unit: '×', pass: judged.cpu >= TARGETS.ratio },
  { target: `calculate ≥ ${TARGETS.perSec.toLocaleString('en')} requests/s (2xx)`, value: calc.okPerSec, unit: '/s', pass: calc.okPerSec >= TARGETS.perSec },
  { target: `calculate p99 < ${TARGETS.p99Ms} ms at ${connections} connections (2xx)`, value: calc.p99Ms, unit: 'ms', pass: calc.p99Ms < TARGETS.p99Ms },
  { target: `list ≥ ${TARGETS.perSec.toLocaleString('en')} requests/s`, value: list.okPerSec, unit: '/s', pass: list.okPerSec >= TARGETS.perSec },
  { target: `list p99 < ${TARGETS.p99Ms} ms at ${connections} connections`, value: list.p99Ms, unit: 'ms', pass: list.p99Ms < TARGETS.p99Ms },
  { target: 'a 1,000-item pay run < 1,000 single requests (server CPU)', value: payRun!.ratio, unit: '×', pass: payRun!.ratio < 1 },
];
notes.push(`pay run: server CPU for ${payRun!.items} calculations, median of ${payRun!.rounds} rounds: singles ${payRun!.singlesCpuMs.toFixed(0)} ms, one pay run ${payRun!.payRunCpuMs.toFixed(0)} ms`);
const baselineCalc = results.find((result) => result.scenario === 'baseline calculate');
if (baselineCalc) {
  notes.push(
    `service / baseline ${baselineLabel}: calculate ${(calc.okPerSec / baselineCalc.okPerSec).toFixed(3)}× (2xx/s), ${(baselineCalc.cpuUsPer2xx / calc.cpuUsPer2xx).toFixed(3)}× by server CPU per 2xx; the baseline / bare replay: ${(baselineCalc.okPerSec / replayCalc.okPerSec).toFixed(3)}×`,
  );
}
const rejected = Object.values(calc.otherStatuses).reduce((sum, count) => sum + count, 0);
if (rejected > 0) {
  notes.push(
    `service calculate: ${rejected.toLocaleString('en')} of ${(rejected + calc.ok).toLocaleString('en')} responses were not 2xx (${Object.entries(calc.otherStatuses)
      .map(([code, count]) => `${count} × ${code}`)
      .join(', ')}); only 2xx count as throughput`,
  );
}

if (json) {
  const round = (value: number, digits = 2) => Number(value.toFixed(digits));
  process.stdout.write(
    `${JSON.stringify(
      {
        node: process.version,
        connections,
        warmupS,
        calcWarmupS,
        durationS,
        pinned: pin,
        scenarios: results.map(({ window: _window, ...result }) => ({
          ...result,
          seconds: round(result.seconds),
          okPerSec: Math.round(result.okPerSec),
          allPerSec: Math.round(result.allPerSec),
          p50Ms: round(result.p50Ms),
          p90Ms: round(result.p90Ms),
          p99Ms: round(result.p99Ms),
          maxMs: round(result.maxMs),
          cpuUsPer2xx: round(result.cpuUsPer2xx, 1),
          userUsPer2xx: round(result.userUsPer2xx, 1),
          systemUsPer2xx: round(result.systemUsPer2xx, 1),
          rssMB: round(result.rssMB, 1),
          peakRssMB: round(result.peakRssMB, 1),
        })),
        ratios: { calculate: round(ratios.calculate, 3), list: round(ratios.list, 3), bareEngine: round(ratios.engine, 3), calculateOfBareEngine: round(calc.okPerSec / engineCalc.okPerSec, 3) },
        cpuRatios: { calculate: round(cpuRatios.calculate, 3), list: round(cpuRatios.list, 3), bareEngine: round(cpuRatios.engine, 3), calculateOfBareEngine: round(engineCalc.cpuUsPer2xx / calc.cpuUsPer2xx, 3) },
        rounds: pairRatios.map((pair, index) => ({
          serviceOkPerSec: Math.round(roundPairs[index]!.served.okPerSec),
          bareReplayOkPerSec: Math.round(roundPairs[index]!.bare.okPerSec),
          bareEngineOkPerSec: Math.round(roundPairs[index]!.engineOnly.okPerSec),
          ratio: round(pair.rate, 3),
          cpuRatio: round(pair.cpu, 3),
          ofBareEngine: round(pair.ofEngine, 3),
          ofBareEngineByCpu: round(pair.ofEngineByCpu, 3),
        })),
        targets: targets.map(({ target, value, pass }) => ({ target, value: round(value), pass })),
        baseline: baselineCalc
          ? { revision: baselineLabel, calculate: round(calc.okPerSec / baselineCalc.okPerSec, 3), calculateByCpu: round(baselineCalc.cpuUsPer2xx / calc.cpuUsPer2xx, 3), ofBareReplay: round(baselineCalc.okPerSec / replayCalc.okPerSec, 3) }
          : undefined,
        notes,
      },
      null,
      2,
    )}\n`,
  );
} else {
  const num = (value: number, digits = 0) => value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  say();
  say(`${'scenario'.padEnd(42)} ${'2xx/s'.padStart(8)} ${'all/s'.padStart(8)} ${'non-2xx'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p90 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'CPU µs/2xx'.padStart(10)} ${'user'.padStart(6)} ${'system'.padStart(6)} ${'RSS MB'.padStart(7)}`);
  for (const result of results) {
    const other = Object.values(result.otherStatuses).reduce((sum, count) => sum + count, 0) + result.errors;
    say(`${result.scenario.padEnd(42)} ${num(result.okPerSec).padStart(8)} ${num(result.allPerSec).padStart(8)} ${num(other).padStart(8)} ${num(result.p50Ms, 2).padStart(7)} ${num(result.p90Ms, 2).padStart(7)} ${num(result.p99Ms, 2).padStart(7)} ${num(result.maxMs, 1).padStart(7)} ${num(result.cpuUsPer2xx, 0).padStart(10)} ${num(result.userUsPer2xx, 0).padStart(6)} ${num(result.systemUsPer2xx, 0).padStart(6)} ${num(result.rssMB, 0).padStart(7)}`);
  }
  say();
  say(`service / bare replay: calculate ${num(ratios.calculate, 3)}×, list ${num(ratios.list, 3)}× (2xx/s); by server CPU per 2xx: calculate ${num(cpuRatios.calculate, 3)}×, list ${num(cpuRatios.list, 3)}×`);
  say(`bare engine / bare replay (the ceiling of a request path around today's engine): calculate ${num(ratios.engine, 3)}× (2xx/s), ${num(cpuRatios.engine, 3)}× by server CPU per 2xx`);
  say(`service / bare engine (what the service's request path keeps of that ceiling): calculate ${num(calc.okPerSec / engineCalc.okPerSec, 3)}× (2xx/s), ${num(engineCalc.cpuUsPer2xx / calc.cpuUsPer2xx, 3)}× by server CPU per 2xx`);
  for (const [index, pair] of pairRatios.entries()) {
    const { served, bare } = roundPairs[index]!;
    const { engineOnly } = roundPairs[index]!;
    say(
      `round ${index + 1}: service ${num(served.okPerSec)}/s (${num(served.cpuUsPer2xx)} µs), bare replay ${num(bare.okPerSec)}/s (${num(bare.cpuUsPer2xx)} µs), bare engine ${num(engineOnly.okPerSec)}/s (${num(engineOnly.cpuUsPer2xx)} µs): of the replay ${num(pair.rate, 3)}× (2xx/s), ${num(pair.cpu, 3)}× by CPU; of the bare engine ${num(pair.ofEngine, 3)}×, ${num(pair.ofEngineByCpu, 3)}× by CPU`,
    );
  }
  if (pairRatios.length > 0) {
    say(`rounds, median: service / bare replay ${num(judged.rate, 3)}× (2xx/s), ${num(judged.cpu, 3)}× by server CPU per 2xx`);
    say(
      `rounds, median: service / bare engine ${num(median(pairRatios.map((pair) => pair.ofEngine)), 3)}× (2xx/s), ${num(median(pairRatios.map((pair) => pair.ofEngineByCpu)), 3)}× by server CPU per 2xx`,
    );
  }
  for (const note of notes) say(`note: ${note}`);
  say();
  for (const { target, value, unit, pass } of targets) say(`${pass ? 'PASS' : 'MISS'}  ${target.padEnd(58)} ${num(value, unit === '/s' ? 0 : 2)}${unit === '/s' ? '/s' : ` ${unit}`}`);
  for (const section of profileSections) say(`\n${section}`);
}
