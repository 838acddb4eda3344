/**
 * Boot bench: how long from spawning a process to its first 200 from /api/health, for the compiled
 * service started directly and through `npm start`, against a bare node:http server started the same
 * way in the same run; the resident size of the service under a 50-connection calculate load; and
 * the command-line tools, through npx and as `node bin/...`, against `node -e 0`. Every command runs
 * in turn, round after round, so a machine that slows down slows all of them alike; medians and
 * ratios to the baseline are what to quote.
 *
 * The resident size is read every second of a sustained load, and the target is judged on the
 * largest reading: left to its defaults, V8 lets its old generation fill with garbage for a minute
 * or more before its first full collection, so a reading after a few seconds said far less than a
 * service under steady traffic holds.
 *
 *   npm run bench:boot                  table
 *   npm run -s bench:boot -- --json     JSON only
 *   options: --runs=7  --sources (also the service from its TypeScript sources under tsx)
 *            --load-seconds=60 (the sustained load)  --without=<flag> (run the service without one
 *            of the start script's node flags, to see what the flag does)  --with=<flag> (with one
 *            more node flag than the start script passes)
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { freePort } from './lib/free-port.ts';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { median } from './lib/measure.ts';
import { PROJECT_ROOT } from './lib/packs.ts';
import { readStartCommand, withNodeFlag, withoutNodeFlag } from './lib/start-command.ts';

const TARGETS = { directMs: 300, npmStartMs: 600, rssMB: 110, npxMs: 600, nodeBinMs: 300 };
const argument = (name: string) => process.argv.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
const runs = Number(argument('runs')?.split('=')[1] ?? 7);
const loadSeconds = Number(argument('load-seconds')?.split('=')[1] ?? 60);
if (!Number.isInteger(loadSeconds) || loadSeconds < 10) throw new Error('--load-seconds must be a whole number of at least 10');
const without = argument('without')?.split('=').slice(1).join('=');
const withFlag = argument('with')?.split('=').slice(1).join('=');
const json = Boolean(argument('json'));
const withSources = Boolean(argument('sources'));
const say = (line = '') => {
  if (!json) process.stdout.write(`${line}\n`);
};
/** How `npm start` runs the service (node flags, environment), read from scripts/start.sh so the bench runs it the same way. */
const configured = without === undefined ? readStartCommand() : withoutNodeFlag(readStartCommand(), without);
const START = withFlag === undefined ? configured : withNodeFlag(configured, withFlag);
const BARE_SERVER = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";
const CALCULATE_BODY = JSON.stringify({ facts: { grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 165_400, currency: 'AUD' }, period: 'weekly' }, taxFreeThresholdClaimed: true } });

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.once('error', () => resolve(false));
    request.end();
  });
}

/** Spawns a server, polls /api/health every 2 ms until it answers 200; returns the time, and the process to measure or stop. */
async function bootTime(command: string, args: string[], port: number, env: Record<string, string> = {}): Promise<{ ms: number; stop: () => Promise<void>; pid: number }> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env, PORT: String(port), RATE_LIMIT_MAX: '0' }, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await healthy(port))) {
    if (gone) throw new Error(`${command} ${args.join(' ')} exited before it answered`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const ms = performance.now() - started;
  return {
    ms,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs a command to its end; returns its wall time. */
function commandTime(command: string, args: string[]): number {
  const started = performance.now();
  const ran = spawnSync(command, args, { cwd: PROJECT_ROOT, stdio: 'ignore' });
  if (ran.error) throw ran.error;
  return performance.now() - started;
}

function residentMB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

// ---- run ---------------------------------------------------------------------------------------

const loadBefore = loadavg()[0]!;
const built = spawnSync(process.execPath, ['scripts/build.js'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
if (built.status !== 0) throw new Error('the build failed');

const servers: { name: string; command: string; args: string[]; env?: Record<string, string> }[] = [
  { name: 'bare node:http server (baseline)', command: process.execPath, args: ['-e', BARE_SERVER] },
  { name: 'service, node dist/server.js', command: process.execPath, args: [...START.nodeFlags, 'dist/server.js'], env: START.env },
  { name: 'service, npm start', command: 'npm', args: ['start', '--silent'] },
  ...(withSources ? [{ name: 'service from sources, node --import tsx', command: process.execPath, args: ['--import', 'tsx', 'server/main.ts'] }] : []),
];
const commands: { name: string; command: string; args: string[] }[] = [
  { name: 'node -e 0 (baseline)', command: process.execPath, args: ['-e', '0'] },
  { name: 'npx validate-pack (shipped packs)', command: 'npx', args: ['--no-install', 'validate-pack'] },
  { name: 'npx explain --help', command: 'npx', args: ['--no-install', 'explain', '--help'] },
  { name: 'node bin/validate-pack.js', command: process.execPath, args: ['bin/validate-pack.js'] },
  { name: 'node bin/explain.js --help', command: process.execPath, args: ['bin/explain.js', '--help'] },
];

const bootTimes = new Map(servers.map((server) => [server.name, [] as number[]]));
const commandTimes = new Map(commands.map((command) => [command.name, [] as number[]]));
say(`Boot bench: ${runs} rounds, each command in turn; machine load average ${loadBefore.toFixed(2)} at start.`);
for (let round = 0; round <= runs; round++) {
  for (const server of servers) {
    const port = await freePort();
    const booted = await bootTime(server.command, server.args, port, server.env);
    await booted.stop();
    if (round > 0) bootTimes.get(server.name)!.push(booted.ms); // round 0 warms the file cache
  }
  for (const command of commands) {
    const ms = commandTime(command.command, command.args);
    if (round > 0) commandTimes.get(command.name)!.push(ms);
  }
}

// Resident size under load: the service as npm start runs it (less the --without flag, plus the --with flag), 50 connections of calculate.
const port = await freePort();
const service = await bootTime(process.execPath, [...START.nodeFlags, 'dist/server.js'], port, START.env);
const residentEachSecond: number[] = [];
const sampler = setInterval(() => residentEachSecond.push(residentMB(service.pid)), 1000);
const underLoad = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: 50,
  duration: loadSeconds,
  requests: [{ method: 'POST', path: '/api/v1/calculators/au.pay.take-home/calculate', headers: { 'content-type': 'application/json' }, body: CALCULATE_BODY }],
});
clearInterval(sampler);
await service.stop();
const rssMB = Math.max(...residentEachSecond);
const rssAt10sMB = residentEachSecond[9] ?? NaN;
const rssLastMB = residentEachSecond.at(-1) ?? NaN;

// ---- report ------------------------------------------------------------------------------------

const medianOf = (times: Map<string, number[]>, name: string) => median(times.get(name)!);
const bootBaseline = medianOf(bootTimes, servers[0]!.name);
const commandBaseline = medianOf(commandTimes, commands[0]!.name);
const direct = medianOf(bootTimes, servers[1]!.name);
const npmStart = medianOf(bootTimes, servers[2]!.name);
const targets = [
  { target: `spawn to first 200, node dist/server.js ≤ ${TARGETS.directMs} ms (median)`, value: direct, pass: direct <= TARGETS.directMs },
  { target: `spawn to first 200, npm start ≤ ${TARGETS.npmStartMs} ms (median)`, value: npmStart, pass: npmStart <= TARGETS.npmStartMs },
  { target: `RSS under 50-connection calculate load ≤ ${TARGETS.rssMB} MB (largest, ${loadSeconds} s)`, value: rssMB, pass: rssMB <= TARGETS.rssMB },
  ...commands.slice(1).map((command) => {
    const limit = command.command === 'npx' ? TARGETS.npxMs : TARGETS.nodeBinMs;
    const value = medianOf(commandTimes, command.name);
    return { target: `${command.name} ≤ ${limit} ms (median)`, value, pass: value <= limit };
  }),
];
const loadAfter = loadavg()[0]!;

if (json) {
  const round = (value: number) => Math.round(value * 10) / 10;
  const rows = (times: Map<string, number[]>, baseline: number) =>
    [...times].map(([name, values]) => ({ name, medianMs: round(median(values)), minMs: round(Math.min(...values)), maxMs: round(Math.max(...values)), ratioToBaseline: round(median(values) / baseline) }));
  process.stdout.write(
    `${JSON.stringify({ node: process.version, runs, boot: rows(bootTimes, bootBaseline), commands: rows(commandTimes, commandBaseline), nodeFlags: START.nodeFlags, rssMB: { largest: round(rssMB), at10s: round(rssAt10sMB), last: round(rssLastMB), eachSecond: residentEachSecond.map(round) }, loadSeconds, calculationsUnderLoad: underLoad['2xx'], targets, loadAverage: { before: loadBefore, after: loadAfter } }, null, 2)}\n`,
  );
} else {
  const table = (title: string, times: Map<string, number[]>, baseline: number) => {
    say();
    say(`${title.padEnd(44)} ${'median ms'.padStart(10)} ${'min'.padStart(7)} ${'max'.padStart(7)} ${'× baseline'.padStart(11)}`);
    for (const [name, values] of times) {
      say(`${name.padEnd(44)} ${median(values).toFixed(0).padStart(10)} ${Math.min(...values).toFixed(0).padStart(7)} ${Math.max(...values).toFixed(0).padStart(7)} ${(median(values) / baseline).toFixed(2).padStart(11)}`);
    }
  };
  table('spawn to first 200 from /api/health', bootTimes, bootBaseline);
  table('command, start to exit', commandTimes, commandBaseline);
  say();
  say(`service RSS under ${loadSeconds} s of 50-connection calculate load (node ${START.nodeFlags.join(' ')}): largest ${rssMB.toFixed(0)} MB, ${rssAt10sMB.toFixed(0)} MB at 10 s, ${rssLastMB.toFixed(0)} MB at the end (${underLoad['2xx'].toLocaleString('en')} calculations)`);
  say(`machine load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; on a busy machine compare the ratios, not the times`);
  say();
  for (const { target, value, pass } of targets) say(`${pass ? 'PASS' : 'MISS'}  ${target.padEnd(62)} ${value.toFixed(0)}`);
}
