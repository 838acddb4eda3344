// Lane: services (npm run test:fast leaves this file out).
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { LevelOutcome } from '../../bench/load-client.ts';
import { runProbe } from '../../bench/load-probe.ts';
import { saturationReport, throughputReport, workersReport, type WorkersReport } from '../../bench/load-report.ts';
import { nextFloodRequest } from '../../bench/load-traffic.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

// The load bench's worker-count part, exercised briefly: no timing is asserted, only that its
// loops send what they should and that its report counts the answers as the contract sorts them.

/** A loopback server whose first answer is held back `firstDelayMs`; every later one is at once. */
async function serve(firstDelayMs: number): Promise<{ server: Server; url: string }> {
  let answered = 0;
  const server = createServer((request, response) => {
    const delay = answered++ === 0 ? firstDelayMs : 0;
    setTimeout(() => response.end('{}'), delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('the probe keeps its schedule while an earlier request is still unanswered', async () => {
  const { server, url } = await serve(400);
  try {
    const outcome = await runProbe({ url, path: '/api/health', perSecond: 50, durationMs: 300 });
    // 300 ms at one every 20 ms; a probe that waited for each answer would have sent one or two.
    assert.is(outcome.sent, 15);
    assert.equal(outcome.statuses, { '200': 15 });
    assert.is(outcome.latencies.length, 15);
    assert.ok(outcome.latencies.at(-1)! >= 300, 'the held-back answer is the slowest');
    assert.ok(outcome.latencies[0]! < outcome.latencies.at(-1)!, 'later requests did not wait behind it');
    // The held-back request kept its connection busy, so at least the next one opened another.
    assert.ok(outcome.newConnectionLatencies.length >= 2 && outcome.newConnectionLatencies.length < 15);
  } finally {
    server.close();
  }
});

test('the flood is calculations and searches for terms the service has not seen, within the query limits', () => {
  const random = seededRandom(7);
  const requests = Array.from({ length: 400 }, () => nextFloodRequest(random));
  const searches = requests.filter((request) => request.path.startsWith('/api/v1/docs/search?term='));
  const calculations = requests.filter((request) => request.calculation);
  assert.is(searches.length + calculations.length, requests.length);
  assert.ok(searches.length > 150 && calculations.length > 150);
  const terms = searches.map((request) => new URL(request.path, 'http://x').searchParams.get('term')!);
  assert.ok(new Set(terms).size >= terms.length - 2, 'nearly every search is for a new term');
  assert.ok(terms.every((term) => term.split(' ').length === 8 && /^[a-z ]+$/.test(term)));
});

/** A flood outcome as the load client reports it, with answers by refusal key. */
function floodOutcome(refusals: Record<string, number>, ok: number): LevelOutcome {
  const refused = Object.values(refusals).reduce((sum, n) => sum + n, 0);
  return {
    concurrency: 20,
    requests: ok + refused,
    elapsedMs: 1000,
    latencies: new Float64Array(ok + refused),
    statuses: { '200': ok, ...(refused > 0 ? { other: refused } : {}) },
    refusals,
    calculations: ok,
    calculationsOk: ok,
    slowest: undefined,
  };
}

const probe = (sent: number, statuses: Record<string, number>) => ({ path: '/api/health', sent, latencies: Array.from({ length: sent }, (_, index) => index + 1), newConnectionLatencies: [sent], statuses, sendLagMaxMs: 0 });

test('under the flood, 503s that shed load are counted as shed and pass; anything else is a MISS', () => {
  const shedOnly = saturationReport(
    floodOutcome({ 'calculate au.pay.take-home -> 503 CalculatorCapacityExceeded': 5, 'GET docs search (new term) -> 503 DocsSearchUnavailable': 3 }, 10),
    probe(100, { '200': 100 }),
    probe(100, { '200': 100 }),
    50,
  );
  assert.equal({ ok: shedOnly.flood.ok, shed: shedOnly.flood.shed, other: shedOnly.flood.other }, { ok: 10, shed: 8, other: 0 });
  assert.equal(shedOnly.probe.saturated.latencyMs, { p50: 50, p99: 99, max: 100 });
  assert.is(workersReport(1, { saturation: shedOnly, serviceExitCodes: [0] }).verdict, 'PASS');

  const withFailure = saturationReport(floodOutcome({ 'calculate au.pay.take-home -> 500 untagged': 1 }, 10), probe(10, { '200': 10 }), probe(10, { '200': 10 }), 50);
  assert.is(withFailure.flood.other, 1);
  const report: WorkersReport = workersReport(1, { saturation: withFailure, serviceExitCodes: [0] });
  assert.is(report.verdict, 'MISS');
  assert.ok(report.notes.some((note) => note.includes('500 untagged')));

  const probeRefused = saturationReport(floodOutcome({}, 10), probe(10, { '200': 10 }), probe(10, { '200': 9, '503': 1 }), 50);
  assert.is(workersReport(1, { saturation: probeRefused, serviceExitCodes: [0] }).verdict, 'MISS');
});

test('throughput is calculations answered 200 a second, against the first worker count round by round', () => {
  const stretch = (ok: number, cpuSeconds: number | undefined, refusals: Record<string, number> = {}) => ({ outcome: floodOutcome(refusals, ok), cpuSeconds });
  const firstRounds = [stretch(400, 0.5), stretch(200, 0.5)];
  const first = throughputReport(firstRounds, firstRounds);
  assert.equal([first.calcOkPerSecond, first.ratioToFirst, first.cpuSeconds, first.calcOkPerCpuSecond, first.rounds], [300, 1, 1, 600, 2]);
  // Each round against the first count's round taken beside it: 1.5 and 1.0, median 1.25.
  const second = throughputReport([stretch(600, 0.6), stretch(200, 0.4)], firstRounds);
  assert.equal([second.calcOkPerSecond, second.ratioToFirst, second.calcOkPerCpuSecond], [400, 1.25, 800]);
  assert.is(throughputReport([stretch(600, undefined), stretch(200, 0.4)], firstRounds).calcOkPerCpuSecond, null);

  assert.is(workersReport(1, { throughput: first, serviceExitCodes: [0] }).verdict, 'PASS');
  assert.is(workersReport(1, { throughput: first, serviceExitCodes: [1] }).verdict, 'MISS');
  const refused = throughputReport([stretch(600, 0.6, { 'calculate au.pay.take-home -> 503 CalculatorCapacityExceeded': 50 })], firstRounds);
  assert.is(workersReport(2, { throughput: refused, serviceExitCodes: [0] }).verdict, 'MISS', 'a calculation refused while capacity is measured');
});

// One service start (the saturation part) keeps this to a few seconds; the throughput part runs the
// same client and service code as the levels.
test('npm run load runs the light request under a flood end to end and reports it in its JSON', async () => {
  const args = ['--import', 'tsx', 'bench/load.ts', '--json', '--levels=none', '--workers=1', '--warmup-seconds=0', '--throughput-seconds=0'];
  args.push('--flood-clients=10', '--saturation-seconds=0.5', '--probe-idle-seconds=0.3', '--probe-rate=20');
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, args, { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))),
  );
  const summary = JSON.parse(stdout) as { cores: number; loadAverage: { before: number[] }; levels: unknown[]; workers: WorkersReport[]; verdict: string };
  assert.is(summary.levels.length, 0);
  assert.is(summary.loadAverage.before.length, 3);
  assert.is(summary.workers.length, 1);
  const [run] = summary.workers;
  assert.is(run!.workers, 1);
  assert.equal(run!.serviceExitCodes, [0]);
  assert.is(run!.throughput, undefined);
  const { idle, saturated } = run!.saturation!.probe;
  assert.equal([idle.sent, saturated.sent], [6, 10]);
  assert.equal([idle.statuses, saturated.statuses], [{ '200': 6 }, { '200': 10 }]);
  assert.ok(run!.saturation!.flood.requests > 0);
  assert.is(run!.saturation!.flood.other, 0);
  assert.is(summary.verdict, 'PASS');
});

test.run();
