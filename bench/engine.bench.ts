/**
 * Engine bench: calculations per second of the take-home and annual calculators with full traces,
 * against a direct decimal.js computation of the same arithmetic, plus pack load time.
 *
 *   npm run bench                 table
 *   npm run -s bench -- --json    JSON only (-s keeps npm's own lines off stdout)
 *   options: --rounds=12 --round-ms=400 --warmup-ms=1500 --loads=10 --strict (exit 1 on a MISS)
 *
 * Loops are measured in turn, many short rounds each, and a ratio to the direct computation is
 * taken per round (the two measured seconds apart), then the median: background load on a shared
 * machine then moves both sides of a ratio alike.
 *
 * One process, one thread, pinned to one CPU with taskset when available (BENCH_NO_PIN=1 to skip).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadPacks } from '../engine/index.ts';
import { median, measureFor } from './lib/measure.ts';
import { loadShipped, PACKS_DIR, PROJECT_ROOT } from './lib/packs.ts';
import { pinToOneCore } from './lib/pin.ts';
import { payrollInputs, payrollScenario } from './lib/payroll.ts';
import { benchSetup, coverage, disagreements, scenarios, type Scenario } from './lib/scenarios.ts';

const TARGETS = { ratio: 3, takeHomePerSec: 50_000, loadMs: 300, payrollToTakeHome: 1.5 };

function option(name: string, fallback: number): number {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  if (!found) return fallback;
  const value = Number(found.slice(name.length + 3));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const json = process.argv.includes('--json');
const strict = process.argv.includes('--strict');
const rounds = option('rounds', 12);
const roundMs = option('round-ms', 400);
const warmupMs = option('warmup-ms', 1500);
const loads = option('loads', 10);
const pinning = pinToOneCore(0);
const say = (line = '') => {
  if (!json) process.stdout.write(`${line}\n`);
};

const loadBefore = loadavg()[0]!;

// 1. Pack load and validation: the first call in this process, then warm repeats.
const loadTimes: number[] = [];
for (let index = 0; index <= loads; index++) {
  const started = performance.now();
  const loaded = loadPacks([PACKS_DIR], { displayRoot: PROJECT_ROOT });
  loadTimes.push(performance.now() - started);
  if (loaded.diagnostics.length > 0 || loaded.packs.length === 0) throw new Error('the shipped packs did not load cleanly');
}
const [coldLoadMs, ...warmLoads] = loadTimes as [number, ...number[]];
const loadMedianMs = median(warmLoads);

// 2. Same figures from both sides, on every generated input, before any timing.
const { takeHome, annual, payroll } = loadShipped();
if (!payroll) throw new Error('the shipped packs do not offer the payroll calculator for the default year');
const setup = benchSetup(takeHome, annual);
const wrong = disagreements(setup);
if (wrong.length > 0) {
  process.stderr.write(`The direct computation and the engine disagree on ${wrong.length} inputs, e.g.\n${wrong.slice(0, 3).join('\n')}\n`);
  process.exit(1);
}
const spread = coverage(setup);
if (spread.missing.length > 0) throw new Error(`the inputs miss ${spread.missing.join(', ')}`);
say(`Checked: direct computation = engine (facts and report) on all ${setup.payInputs.length} take-home and ${setup.annualInputs.length} annual inputs;`);
say(`inputs cover 3 periods, ${setup.directTakeHome.rowCounts.scale1 + setup.directTakeHome.rowCounts.scale2} scale rows, ${setup.directAnnual.rowCounts.tax} rate rows, ${setup.directAnnual.rowCounts.offset} offset rows, 3 Medicare zones.`);

// 3. Warm every loop, then measure them in turn, round after round, so drift hits all alike.
const loops = [...scenarios(setup), payrollScenario(payroll, payrollInputs(payroll, setup.payInputs))];
say(`Warming up (${warmupMs} ms each), then ${rounds} rounds × ${roundMs} ms per loop; ${pinning}.`);
for (const loop of loops) measureFor(loop.run, warmupMs);
const samples = new Map<string, number[]>(loops.map((loop) => [loop.id, []]));
for (let round = 0; round < rounds; round++) {
  for (const loop of loops) samples.get(loop.id)!.push(measureFor(loop.run, roundMs).opsPerSec);
}

const loadAfter = loadavg()[0]!;
const busyMachine = Math.max(loadBefore, loadAfter) > 1.5;

interface Row {
  id: string;
  calculator: Scenario['calculator'];
  label: string;
  opsPerSec: number;
  microsPerOp: number;
  rounds: number[];
  timesDirect: number;
}
const perSec = (id: string) => median(samples.get(id)!);
/** Time of one loop / time of another, per round, then the median. */
const timesOther = (id: string, other: string) => {
  const baseline = samples.get(other)!;
  return median(samples.get(id)!.map((opsPerSec, round) => baseline[round]! / opsPerSec));
};
/** Engine time / direct time, per round, then the median; the payroll calculator has no direct computation. */
const timesDirect = (id: string, calculator: string) => (samples.has(`${calculator}.direct`) ? timesOther(id, `${calculator}.direct`) : Number.NaN);
const payrollTimesTakeHome = timesOther('payroll.report', 'take-home.report');
const rows: Row[] = loops.map((loop) => {
  const opsPerSec = perSec(loop.id);
  return {
    id: loop.id,
    calculator: loop.calculator,
    label: loop.label,
    opsPerSec,
    microsPerOp: 1e6 / opsPerSec,
    rounds: samples.get(loop.id)!.map(Math.round),
    timesDirect: timesDirect(loop.id, loop.calculator),
  };
});
const rowOf = (id: string) => rows.find((row) => row.id === id)!;

const targets = [
  { target: `take-home engine (report + trace) within ${TARGETS.ratio}× of direct`, value: rowOf('take-home.report').timesDirect, unit: '×', pass: rowOf('take-home.report').timesDirect <= TARGETS.ratio },
  { target: `annual engine (report + trace) within ${TARGETS.ratio}× of direct`, value: rowOf('annual.report').timesDirect, unit: '×', pass: rowOf('annual.report').timesDirect <= TARGETS.ratio },
  {
    target: `payroll engine (report + trace) within ${TARGETS.payrollToTakeHome}× of take-home's time`,
    value: payrollTimesTakeHome,
    unit: '×',
    pass: payrollTimesTakeHome <= TARGETS.payrollToTakeHome,
  },
  { target: `≥ ${TARGETS.takeHomePerSec.toLocaleString('en')} take-home calcs/s with full traces`, value: rowOf('take-home.report').opsPerSec, unit: '/s', pass: rowOf('take-home.report').opsPerSec >= TARGETS.takeHomePerSec },
  { target: `pack load + validation < ${TARGETS.loadMs} ms (median of ${warmLoads.length})`, value: loadMedianMs, unit: 'ms', pass: loadMedianMs < TARGETS.loadMs },
];

if (json) {
  process.stdout.write(
    `${JSON.stringify(
      {
        node: process.version,
        pinning,
        loadAverage: { before: loadBefore, after: loadAfter },
        inputs: { takeHome: setup.payInputs.length, annual: setup.annualInputs.length },
        method: { rounds, roundMs, warmupMs, statistic: 'median of rounds; timesDirect is the median of per-round ratios' },
        calculations: rows.map(({ id, label, opsPerSec, microsPerOp, rounds: perRound, timesDirect }) => ({
          id,
          label,
          opsPerSec: Math.round(opsPerSec),
          microsPerOp: Number(microsPerOp.toFixed(2)),
          timesDirect: Number.isNaN(timesDirect) ? null : Number(timesDirect.toFixed(2)),
          rounds: perRound,
        })),
        load: { coldMs: Number(coldLoadMs.toFixed(1)), medianMs: Number(loadMedianMs.toFixed(1)), runsMs: warmLoads.map((ms) => Number(ms.toFixed(1))) },
        targets: targets.map(({ target, value, pass }) => ({ target, value: Number(value.toFixed(2)), pass })),
      },
      null,
      2,
    )}\n`,
  );
} else {
  const pad = (text: string, width: number) => text.padEnd(width);
  const num = (value: number, digits = 0) => value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  say();
  say(`${pad('calculator', 11)} ${pad('what is timed', 44)} ${'calcs/s'.padStart(10)} ${'µs/calc'.padStart(8)} ${'× direct'.padStart(9)}`);
  for (const row of rows) {
    say(`${pad(row.calculator, 11)} ${pad(row.label, 44)} ${num(row.opsPerSec).padStart(10)} ${num(row.microsPerOp, 2).padStart(8)} ${(Number.isNaN(row.timesDirect) ? '—' : `${num(row.timesDirect, 2)}×`).padStart(9)}`);
  }
  say();
  say(`Pack load + validation (loadPacks rulepacks/): first call ${num(coldLoadMs, 1)} ms, median of next ${warmLoads.length}: ${num(loadMedianMs, 1)} ms`);
  say(`Machine load average (1 min): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after${busyMachine ? ' — other processes were busy: figures are noisy' : ''}`);
  say();
  for (const { target, value, unit, pass } of targets) say(`${pass ? 'PASS' : 'MISS'}  ${pad(target, 60)} ${num(value, unit === '/s' ? 0 : 2)}${unit === '/s' ? '/s' : ` ${unit}`}`);
}
if (strict && targets.some((target) => !target.pass)) process.exit(1);
