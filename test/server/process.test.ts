import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { delimiter, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE_PACKS, money, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';
import { writeSlowPack } from './slow-pack.ts';

// The service as a separate process, configured by its environment. Node runs it with tsx as a
// loader, in one process: the tsx launcher puts a process of its own in between, which does not
// reliably relay a signal to the server (the cause of this test's old failures).

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: '0', CALC_CONCURRENCY: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) resolve({ child, url: JSON.parse(line).url, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(Object.assign(new Error(`exited with ${code}`), { output, code })));
  });
}

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

async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  try {
    const started = await start(env);
    started.child.kill('SIGTERM');
    return { code: await started.exited, output: started.output() };
  } catch (error) {
    return { code: (error as { code: number | null }).code, output: (error as { output: string }).output };
  }
}

test('the service starts, answers, and on SIGTERM finishes the request in flight before exiting 0', async () => {
  const slowPack = writeSlowPack(20, 600);
  try {
    const service = await start({ RULEPACKS_DIR: [SHIPPED_PACKS, slowPack].join(delimiter) });
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

test('with CALC_ISOLATION=worker the service calculates on worker threads', async () => {
  const service = await start({ CALC_ISOLATION: 'worker', CALC_CONCURRENCY: '1' });
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
  assert.match(output, /service will not start/);
  assert.match(output, /rules\/\S+\.yaml:\d+:\d+ cycle /);
});

test.run();
