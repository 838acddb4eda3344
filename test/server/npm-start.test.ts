// Lane: services (npm run test:fast leaves this file out).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { procUnavailable, testOr } from '../helpers/skip.ts';
import { money, PROJECT_ROOT } from '../helpers/packs.ts';
import { startKeepAliveLoad } from './keep-alive-load.ts';

// What an operator or a supervisor does: `npm start`, then SIGTERM to that very process during traffic.

/** Every process whose parent chain leads to `root`, read from /proc. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces; the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(root);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const readsProcessTree = testOr(test, procUnavailable('the npm start and npm run dev stop tests: the process tree'));

readsProcessTree('SIGTERM to the `npm start` process under keep-alive load: every request sent before it is answered, then everything exits 0 and the port is free', async () => {
  const npm = spawn('npm', ['start'], {
    cwd: PROJECT_ROOT,
    // No rate limit and no load shedding: the load comes from this same, possibly busy, machine, and
    // what is under test is that every request is answered, not how a saturated service sheds.
    env: { ...process.env, PORT: '0', RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) resolve(JSON.parse(line).url);
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code} before listening:\n${output}`)));
  });
  const port = Number(new URL(url).port);

  const load = startKeepAliveLoad(url, 8, '/api/v1/calculators/au.income-tax.annual/calculate', JSON.stringify({ facts: { taxableIncome: money(9_000_000) } }));
  await load.warmedUp(3);
  const tree = descendants(npm.pid!);
  assert.ok(tree.length >= 1, 'npm start runs the server as a child process');
  load.markSignal();
  npm.kill('SIGTERM');

  assert.is(await exited, 0, output);
  await load.finished;
  const before = load.requests.filter((request) => request.sentBeforeSignal);
  assert.ok(before.length >= 24);
  assert.equal(
    before.filter((request) => request.status === undefined || request.status >= 300),
    [],
    'every request sent before the signal was answered 2xx',
  );
  assert.ok(load.requests.some((request) => request.connectionClose), 'keep-alive clients are told to close');
  assert.equal(tree.filter(isAlive), [], 'no process of the tree is left');
  assert.ok(await portIsFree(port), 'the port is free');
  assert.match(output, /"event":"stopping","signal":"SIGTERM"/);
});

readsProcessTree('SIGTERM to the `npm run dev` process stops the server it started: everything exits and the port is free', async () => {
  const npm = spawn('npm', ['run', 'dev'], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) resolve(JSON.parse(line).url);
    });
    void exited.then((code) => reject(new Error(`npm run dev exited with ${code} before listening:\n${output}`)));
  });
  const tree = descendants(npm.pid!);
  assert.ok(tree.length >= 1, 'npm run dev runs the server as a child process');
  npm.kill('SIGTERM');
  await exited;
  // The server drains and exits on its own; it must not outlive npm by more than its drain.
  for (const deadline = performance.now() + 10_000; tree.some(isAlive) && performance.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100));
  const left = tree.filter(isAlive);
  // Ended here if the test fails, so that they do not outlive the run (nor hold its pipes open).
  for (const pid of left) process.kill(pid, 'SIGKILL');
  assert.equal(left, [], `processes left running:\n${output}`);
  assert.ok(await portIsFree(Number(new URL(url).port)), 'the port is free');
  assert.match(output, /"event":"stopping","signal":"SIGTERM"/);
});

test.run();
