// Lane: services (npm run test:fast leaves this file out).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { procUnavailable, testOr } from '../helpers/skip.ts';
import { FIXTURE_PACKS, money, nextYearFixture, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';
import { REPEAT_WINDOW_MS } from '../../server/process/signals.ts';
import { rawRequest } from './raw-http.ts';
import { buildOnce, runToExit, serviceEnvironment, startService } from '../helpers/service-process.ts';
import { writeSlowPack } from './slow-pack.ts';

/** A POST whose `written` settles once the request is entirely written to the socket. */
function postWritten(url: string, body: string): { written: Promise<void>; status: Promise<number> } {
  let written!: Promise<void>;
  const status = new Promise<number>((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    written = new Promise((done) => request.end(body, () => done()));
  });
  return { written, status };
}

test('the service starts, answers, and on SIGTERM finishes the request in flight before exiting 0', async () => {
  const slowPack = writeSlowPack(20, 600);
  try {
    const service = await startService({ RULEPACKS_DIR: [SHIPPED_PACKS, slowPack].join(delimiter) });
    const health = await fetch(`${service.url}/api/health`);
    assert.equal(await health.json(), { service: 'tax-rules-api', status: 'ok' });
    // The signal goes only once the whole request has been handed to the socket: it was sent first.
    const inFlight = postWritten(`${service.url}/api/v1/calculators/test.slow/calculate`, JSON.stringify({ facts: { step0: money(100_000_000) } }));
    await inFlight.written;
    service.child.kill('SIGTERM');
    assert.is(await inFlight.status, 200);
    assert.is(await service.exited, 0);
    assert.match(service.output(), /"event":"stopping","signal":"SIGTERM"/);
    // One log line per request, without values.
    assert.match(service.output(), /"route":"\/api\/v1\/calculators\/:calculatorId\/calculate","status":200/);
    assert.not.match(service.output(), /100000000/);
  } finally {
    rmSync(slowPack, { recursive: true, force: true });
  }
});

test('on SIGTERM, connections that reached the listener before the signal are answered, not reset', async () => {
  const service = await startService({});
  const { port } = new URL(service.url);
  // Stopped, the service accepts nothing: the kernel completes these connections into the listener's
  // backlog, where closing the listener at once would reset them.
  service.child.kill('SIGSTOP');
  const sockets = await Promise.all(Array.from({ length: 40 }, () => new Promise<Socket>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
  })));
  const answers = sockets.map((socket) => new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    socket.on('close', () => resolve(received.slice(0, 12)));
    socket.write('GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n');
  }));
  service.child.kill('SIGTERM');
  service.child.kill('SIGCONT');
  assert.equal(await Promise.all(answers), sockets.map(() => 'HTTP/1.1 200'));
  assert.is(await service.exited, 0);
});

test('on SIGTERM, a service whose log reader has stopped reading still drains and exits 0', async () => {
  const service = await startService({});
  // From here on nothing reads the service's stdout: the pipe fills, and its log lines back up.
  service.child.stdout!.pause();
  let answered = 0;
  for (let request = 0; request < 600; request++) {
    const response = await fetch(`${service.url}/api/health`);
    await response.arrayBuffer();
    if (response.status === 200) answered += 1;
  }
  assert.is(answered, 600);
  service.child.kill('SIGTERM');
  const outcome = await Promise.race([service.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000))]);
  if (outcome !== 0) service.child.kill('SIGKILL');
  assert.is(outcome, 0);
});

test('with stdout a file, every request has its whole log line there once the service has drained and exited', async () => {
  buildOnce();
  const folder = mkdtempSync(join(tmpdir(), 'tax-rules-log-file-'));
  const logFile = join(folder, 'service.log');
  const out = openSync(logFile, 'w');
  const child = spawn('scripts/start.sh', [], { cwd: PROJECT_ROOT, env: serviceEnvironment({}), stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    let listening: { url: string } | undefined;
    for (let wait = 0; !listening && wait < 200; wait++) {
      listening = readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes('"event":"listening"')).map((line) => JSON.parse(line))[0];
      if (!listening) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(listening, 'the service said it was listening');
    // Many requests at once, so that several are answered, and logged, in one turn of the event loop.
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const response = await fetch(`${listening!.url}/api/health`);
        await response.arrayBuffer();
        return response.status;
      }),
    );
    assert.ok(statuses.every((status) => status === 200));
    child.kill('SIGTERM');
    assert.is(await exited, 0);
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { event: string; route?: string });
    assert.is(events.filter((event) => event.event === 'request' && event.route === '/api/health').length, 60);
    assert.is(events.at(-1)!.event, 'stopped');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a SIGTERM while the service is still starting ends it at once, with a stopped line', async () => {
  buildOnce();
  // Another year's packs beside the shipped ones: the build's documentation does not match them, so
  // the start compiles it, which takes seconds. The admin listener says when the start is under way.
  const env = serviceEnvironment({ ADMIN_PORT: '0', RULEPACKS_DIR: [SHIPPED_PACKS, nextYearFixture().root].join(delimiter), TAX_YEARS: 'all', DEFAULT_TAX_YEAR: nextYearFixture().taxYear.id });
  const child = spawn('scripts/start.sh', [], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"event":"admin-listening"')) resolve();
    });
  });
  child.kill('SIGTERM');
  assert.is(await exited, 0);
  assert.match(output, /"event":"stopped","outcome":"before-serving","signal":"SIGTERM"/);
  assert.not.match(output, /"event":"listening"/);
});

const readsProcessEnvironment = testOr(test, procUnavailable("the malloc threshold test: a process's environment"));

readsProcessEnvironment("npm start sets glibc's malloc threshold for the server unless the operator has set one", async () => {
  const thresholdOf = async (env: Record<string, string>) => {
    const service = await startService(env);
    try {
      const environ = readFileSync(`/proc/${service.child.pid}/environ`, 'utf8').split('\0');
      return environ.find((entry) => entry.startsWith('MALLOC_MMAP_THRESHOLD_='));
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  };
  const inherited = process.env.MALLOC_MMAP_THRESHOLD_;
  delete process.env.MALLOC_MMAP_THRESHOLD_;
  try {
    assert.is(await thresholdOf({}), 'MALLOC_MMAP_THRESHOLD_=131072');
    assert.is(await thresholdOf({ MALLOC_MMAP_THRESHOLD_: '262144' }), 'MALLOC_MMAP_THRESHOLD_=262144');
  } finally {
    if (inherited !== undefined) process.env.MALLOC_MMAP_THRESHOLD_ = inherited;
  }
});

test('a start that compiles the documentation does it off the main thread: /livez answers all the while', async () => {
  buildOnce();
  // Another year's packs beside the shipped ones: the build's documentation does not match them,
  // so the start compiles it, which takes seconds. Compiled on the main thread, nothing else ran
  // meanwhile, and V8 kept what the compile allocated in the service's heap.
  const env = serviceEnvironment({ ADMIN_PORT: '0', RULEPACKS_DIR: [SHIPPED_PACKS, nextYearFixture().root].join(delimiter), TAX_YEARS: 'all', DEFAULT_TAX_YEAR: nextYearFixture().taxYear.id });
  const child = spawn('scripts/start.sh', [], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let docsLoadedAt = Infinity;
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const admin = await new Promise<string>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (docsLoadedAt === Infinity && output.includes('"event":"docs-loaded"')) docsLoadedAt = performance.now();
        const line = output.split('\n').find((text) => text.includes('"event":"admin-listening"'));
        if (line) resolve(JSON.parse(line).url as string);
      });
    });
    // One liveness probe after another until the service listens, each answer's time noted.
    const answeredAt: number[] = [];
    while (!output.includes('"event":"listening"')) {
      if ((await fetch(`${admin}/livez`)).status === 200) answeredAt.push(performance.now());
    }
    assert.match(output, /"event":"docs-loaded","from":"sources"/);
    // The probes were answered one after another all through the compile. Compiled on the main
    // thread, the docs held one probe for as long as the compile ran (2.3 s of the 2.3 s from the
    // first answer to the docs-loaded line, on the build machine); the packs, loaded on the main
    // thread before, may hold one for a fraction of that.
    const before = answeredAt.filter((at) => at < docsLoadedAt);
    const longestWait = Math.max(...answeredAt.slice(1).map((at, index) => at - answeredAt[index]!));
    const starting = docsLoadedAt - answeredAt[0]!;
    assert.ok(before.length >= 10, `only ${before.length} answers before the docs were loaded`);
    assert.ok(longestWait < starting / 2, `a probe waited ${Math.round(longestWait)} ms of the ${Math.round(starting)} ms before the docs were loaded`);
  } finally {
    child.kill('SIGTERM');
  }
  assert.is(await exited, 0);
});

test('with CALC_ISOLATION=worker the service calculates on worker threads', async () => {
  const service = await startService({ CALC_ISOLATION: 'worker', CALC_CONCURRENCY: '1' });
  try {
    const response = await fetch(`${service.url}/api/v1/calculators/au.income-tax.annual/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ facts: { taxableIncome: money(9000000) } }),
    });
    assert.is(response.status, 200);
    assert.equal(((await response.json()) as any).report.liability, money(1958800));
  } finally {
    service.child.kill('SIGTERM');
    assert.is(await service.exited, 0);
  }
});

test('invalid configuration stops the process with a message naming each setting', async () => {
  const { code, output } = await runToExit({ PORT: 'eighty', CALC_CONCURRENCY: '0', CALC_ISOLATION: 'fork' });
  assert.is(code, 1);
  assert.match(output, /PORT must be a whole number/);
  assert.match(output, /CALC_CONCURRENCY must be a whole number from 1/);
  assert.match(output, /CALC_ISOLATION must be thread or worker/);
});

test('a pack with problems stops the process, printing every diagnostic', async () => {
  const { code, output } = await runToExit({ RULEPACKS_DIR: join(FIXTURE_PACKS, 'cycle') });
  assert.is(code, 1);
  assert.match(output, /"event":"packs-have-problems"/);
  assert.match(output, /rules\/\S+\.yaml:\d+:\d+ cycle /);
});

test('with ADMIN_PORT, /readyz says ready while serving and 503 draining once SIGTERM arrives, until the last request is answered', async () => {
  const service = await startService({ ADMIN_PORT: '0' });
  const adminLine = service.output().split('\n').find((text) => text.includes('"event":"admin-listening"'));
  const admin = JSON.parse(adminLine!).url as string;
  assert.equal(await (await fetch(`${admin}/readyz`)).json(), { status: 'ready' });
  // A request whose body is still on its way keeps the drain going while the readiness is checked.
  const body = JSON.stringify({ facts: { taxableIncome: money(9_000_000) } });
  const { socket, response } = rawRequest(service.url, `POST /api/v1/calculators/au.income-tax.annual/calculate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  service.child.kill('SIGTERM');
  let readiness: Response | undefined;
  for (let attempt = 0; attempt < 200 && readiness?.status !== 503; attempt++) {
    readiness = await fetch(`${admin}/readyz`);
    if (readiness.status !== 503) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.is(readiness!.status, 503);
  assert.equal(await readiness!.json(), { status: 'draining' });
  assert.is((await fetch(`${admin}/livez`)).status, 200);
  socket.write(body.slice(10));
  const answer = await response;
  assert.is(answer.status, 200);
  assert.is(answer.headers.connection, 'close');
  assert.is(await service.exited, 0);
});

test('a port in use or an address not on this machine stops the process with one structured line, no stack trace', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  try {
    const port = String((holder.address() as AddressInfo).port);
    for (const [env, code] of [
      [{ PORT: port }, 'EADDRINUSE'],
      [{ HOST: '192.0.2.1' }, 'EADDRNOTAVAIL'],
    ] as const) {
      const { code: exitCode, output } = await runToExit(env);
      assert.is(exitCode, 1, output);
      const failure = output.split('\n').find((line) => line.includes('"event":"cannot-listen"'));
      assert.ok(failure, output);
      assert.is(JSON.parse(failure!).code, code);
      assert.is(JSON.parse(failure!).level, 'fatal');
      assert.not.match(output, /^\s+at /m);
    }
  } finally {
    holder.close();
  }
});

test('a second SIGTERM, after the first has started a drain, exits at once with 143', async () => {
  const service = await startService({});
  // A request whose body never finishes keeps the drain waiting for the whole budget.
  const { socket } = rawRequest(service.url, `POST /api/v1/calculators/au.income-tax.annual/calculate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  service.child.kill('SIGTERM');
  // Past the window in which a repeat is taken for the same signal delivered twice.
  await new Promise((resolve) => setTimeout(resolve, REPEAT_WINDOW_MS + 200));
  assert.is(service.child.exitCode, null, 'still draining');
  service.child.kill('SIGTERM');
  assert.is(await service.exited, 143);
  assert.match(service.output(), /"event":"stopped","outcome":"second-signal","signal":"SIGTERM"/);
  socket.destroy();
});

test.run();
