/**
 * Instructions bench: user-space instructions per calculate request, counted by valgrind's callgrind
 * in the server process, for the compiled service and for the bare replay server (bench/replay-server.ts)
 * that answers the same captured response byte for byte. Unlike requests per second on a shared
 * 2-core machine, an instruction count hardly moves with what else the machine is doing, so a
 * change of a few per cent can be seen: run it before and after (`--server=` an older build's
 * dist/server.js for an A/B in one run). It does not see the kernel's share (socket writes), which
 * is about the same for both servers.
 *
 *   npm run bench:instructions
 *   options: --warmup=4000 --requests=2000 --server=<dist/server.js of another build> (repeatable)
 *            --baseline=<git revision> (that revision's service, checked out and built here; repeatable)
 *            --with=<node flag> (this build once more, with that flag added to the start script's; repeatable)
 *
 * Each server runs under callgrind with instrumentation off (at valgrind's speed, many times
 * slower), takes the warm-up requests so that V8 has optimised its hot code, then is counted over
 * the measured requests only. Node runs with --single-threaded: with V8 compiling and collecting on
 * other threads, when optimised code arrived moved a count from run to run; on one thread, runs of
 * one build agree closely (bench/README.md, "Figures behind the code").
 */
import autocannon, { type Request } from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from './lib/free-port.ts';
import { takeHomeInputs } from './lib/inputs.ts';
import { benchWorkDir } from './lib/work-dir.ts';
import { loadShipped, PROJECT_ROOT } from './lib/packs.ts';
import { send } from './lib/send.ts';
import type { CapturedResponse } from './replay-server.ts';
import { checkOutRevision } from './lib/revision.ts';
import { readStartCommand, withNodeFlag } from './lib/start-command.ts';

const CALCULATE_PATH = '/api/v1/calculators/au.pay.take-home/calculate';
const options = process.argv.slice(2);
const numberOption = (name: string, fallback: number) => Number(options.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const warmup = numberOption('warmup', 4000);
const requests = numberOption('requests', 2000);
const servers = options.filter((arg) => arg.startsWith('--server=')).map((arg) => resolve(arg.slice('--server='.length)));
const baselines = options.filter((arg) => arg.startsWith('--baseline=')).map((arg) => arg.slice('--baseline='.length));
const addedFlags = options.filter((arg) => arg.startsWith('--with=')).map((arg) => arg.slice('--with='.length));

if (spawnSync('valgrind', ['--version']).error || spawnSync('callgrind_control', ['--version']).error) {
  process.stdout.write('SKIPPED: the instructions bench needs valgrind and callgrind_control (Debian package `valgrind`).\n');
  process.exit(0);
}
if (servers.length === 0) {
  const built = spawnSync('scripts/build-if-stale.sh', { cwd: PROJECT_ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
  servers.push(join(PROJECT_ROOT, 'dist/server.js'));
}

/** How `npm start` runs the service (node flags, environment), read from scripts/start.sh so the bench runs it the same way. */
const START = readStartCommand();
const work = benchWorkDir('tax-rules-instructions-');

// A few dozen different pay facts in turn, as the HTTP bench sends, so no single input is all that is measured.
const bodies = takeHomeInputs(loadShipped().takeHome, 64, 7).map((facts) => JSON.stringify({ facts }));
function calculateRequests(): Request[] {
  let n = 0;
  return [{ method: 'POST', path: CALCULATE_PATH, headers: { 'content-type': 'application/json' }, setupRequest: (request) => ({ ...request, body: bodies[n++ % bodies.length] }) }];
}

const post = (port: number, body: string) => send(port, 'POST', CALCULATE_PATH, body);

async function answering(child: ChildProcess, port: number): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server under callgrind exited with ${child.exitCode}`);
    try {
      await post(port, bodies[0]!);
      return;
    } catch {
      await new Promise((wait) => setTimeout(wait, 500));
    }
  }
}

const control = (pid: number, ...args: string[]) => {
  const ran = spawnSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });
  if (ran.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} failed`);
};

/** Starts `nodeArgs` under callgrind, warms it up, counts the measured requests; instructions per request. */
async function instructionsPerRequest(name: string, nodeArgs: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const out = join(work, `${name}.%p`);
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, '--single-threaded', ...nodeArgs], {
    cwd: PROJECT_ROOT,
    // No load shedding and no deadline: under valgrind every request is slow.
    env: { ...process.env, PORT: String(port), RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0', CALC_TIMEOUT_MS: '600000', ...env },
    stdio: 'ignore',
  });
  try {
    await answering(child, port);
    const url = `http://127.0.0.1:${port}`;
    await autocannon({ url, connections: 10, amount: warmup, requests: calculateRequests() });
    control(child.pid!, '--zero');
    control(child.pid!, '--instr=on');
    const measured = await autocannon({ url, connections: 10, amount: requests, requests: calculateRequests() });
    control(child.pid!, '--instr=off');
    control(child.pid!, '--dump');
    if (measured['2xx'] !== requests) throw new Error(`${name}: ${measured['2xx']} of ${requests} measured requests answered 2xx`);
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }
  let total = 0;
  const prefix = `${name}.`;
  for (const file of readdirSync(work).filter((file) => file.startsWith(prefix))) {
    for (const match of readFileSync(join(work, file), 'utf8').matchAll(/^totals: (\d+)/gm)) total += Number(match[1]);
  }
  return total / requests;
}

// The bare replay answers with the response the first server gives, captured from it without valgrind.
const captureServer = servers[0]!;
const capturePort = await freePort();
const capturing = spawn(process.execPath, [...START.nodeFlags, captureServer], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: String(capturePort), RATE_LIMIT_MAX: '0' }, stdio: 'ignore' });
await answering(capturing, capturePort);
const reply = await post(capturePort, bodies[0]!);
capturing.kill('SIGTERM');
const kept = reply.headers.filter(([header]) => !['date', 'connection', 'keep-alive'].includes(header.toLowerCase()));
const captured: CapturedResponse[] = [{ method: 'POST', path: CALCULATE_PATH, status: reply.status, headers: kept, bodyBase64: reply.body.toString('base64') }];
const replayFile = join(work, 'captured.json');
writeFileSync(replayFile, JSON.stringify(captured));

process.stdout.write(`Instructions bench: callgrind counts of the server process over ${requests} calculate requests after ${warmup} of warm-up, 10 connections.\n\n`);
const bare = await instructionsPerRequest('replay', ['--import', 'tsx', join(PROJECT_ROOT, 'bench/replay-server.ts')], { REPLAY_FILE: replayFile });
process.stdout.write(`${'server'.padEnd(60)}${'instructions/request'.padStart(22)}${'bare / server'.padStart(15)}\n`);
process.stdout.write(`${'bare replay'.padEnd(60)}${Math.round(bare).toLocaleString('en').padStart(22)}${'1.00'.padStart(15)}\n`);
const measured = [
  ...servers.map((server) => {
    if (!existsSync(server)) throw new Error(`no such server: ${server}`);
    return { label: server, nodeArgs: [...START.nodeFlags, server], env: START.env };
  }),
  ...addedFlags.map((flag) => {
    const command = withNodeFlag(START, flag);
    return { label: `${servers[0]!} ${flag}`, nodeArgs: [...command.nodeFlags, servers[0]!], env: command.env };
  }),
  ...baselines.map((revision) => checkOutRevision(revision, work)),
];
for (const [index, server] of measured.entries()) {
  const count = await instructionsPerRequest(`server-${index}`, server.nodeArgs, server.env);
  process.stdout.write(`${server.label.padEnd(60)}${Math.round(count).toLocaleString('en').padStart(22)}${(bare / count).toFixed(2).padStart(15)}\n`);
}
