import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkMutant, describeMutant, FORMER_FAILURES, fuzzPacks, KNOWN_ENGINE_FAILURES, knownFailure, makeMutant, sourcePacks, writeMutant, type Mutant, type Verdict } from '../fuzz/packs.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// Random edits to the valid packs must never crash or hang the engine: each mutant either gets
// diagnostics or loads cleanly. The suite runs a fixed, small set of seeds; `npm run fuzz:packs` runs
// thousands. Failures already found in the engine are listed in KNOWN_ENGINE_FAILURES and must keep
// failing only the way they were recorded (or pass, once fixed); anything else fails here.
const FIRST_SEED = 1;
const RUNS = 60;
/** Known failures, and seeds that once failed, replayed here too. */
const REPLAYED = [...KNOWN_ENGINE_FAILURES.filter((known) => !/budget/.test(known.signature.source)).map((known) => ({ seed: known.seed })), ...FORMER_FAILURES.map((seed) => ({ seed }))];
/** Mutants (from the run above) also checked through the validate-pack process: seed 47 keeps the data, the others break the pack. */
const CLI_SEEDS = [47, 3, 8];
const STACK = /^\s+at .+:\d+:\d+\)?$/m;

interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function validatePack(dir: string): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/validate-pack.js', dir], { cwd: PROJECT_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Problems a verdict has beyond what its seed is known for. */
function unexpectedProblems(verdict: Verdict): string[] {
  const known = knownFailure(verdict.seed);
  return verdict.problems.filter((problem) => !known?.signature.test(problem));
}

const workDir = mkdtempSync(join(tmpdir(), 'pack-fuzz-cli-'));
let cliRuns: Promise<{ mutant: Mutant; run: ToolRun }[]>;
/** In-process verdicts by seed, from the fuzz run, to compare the process runs against. */
const verdicts = new Map<number, Verdict>();
let unreadableRun: Promise<ToolRun>;

// The validate-pack processes start before the in-process fuzzing, so the two share the cores
// instead of taking turns; their results are checked in the last test.
test.before(() => {
  cliRuns = Promise.all(
    CLI_SEEDS.map(async (seed) => {
      const mutant = makeMutant(seed);
      return { mutant, run: await validatePack(writeMutant(mutant, join(workDir, `cli-${seed}`))) };
    }),
  );
  // An unmodified pack plus a folder named like a rule file: it cannot be read, which alone justifies exit 2.
  const source = sourcePacks().at(-1)!;
  const dir = writeMutant({ seed: 0, source, files: new Map(source.files), edits: [] }, join(workDir, 'unreadable'));
  mkdirSync(join(dir, 'rules', 'unreadable.yaml'));
  unreadableRun = validatePack(dir);
});
test.after(() => rmSync(workDir, { recursive: true, force: true }));

test('every source pack loads cleanly before it is mutated', () => {
  const sources = sourcePacks();
  assert.ok(sources.length >= 3, sources.map((source) => source.dir).join(', '));
  for (const source of sources) assert.ok(source.calculators.length > 0, source.dir);
});

test('the same seed makes the same mutant', () => {
  for (const seed of [1, 17, 599]) assert.is(describeMutant(makeMutant(seed)), describeMutant(makeMutant(seed)));
  assert.is.not(describeMutant(makeMutant(1)), describeMutant(makeMutant(2)));
});

test(`${RUNS} mutants: loadPacks never throws or hangs, answers within its budget, and reports or loads cleanly`, async () => {
  const seeds = `${FIRST_SEED}-${FIRST_SEED + RUNS - 1},${REPLAYED.map((known) => known.seed).join(',')}`;
  const run = await fuzzPacks({ seeds, watchdogMs: 20_000, onVerdict: (verdict) => verdicts.set(verdict.seed, verdict) });
  assert.not.ok(run.stuck, run.stuck && `seed ${run.stuck.seed}: ${run.stuck.reason}\n${describeMutant(makeMutant(run.stuck.seed))}`);
  assert.is(run.verdicts.length, RUNS + REPLAYED.length);
  for (const verdict of run.verdicts) {
    const unexpected = unexpectedProblems(verdict);
    assert.equal(unexpected, [], `${describeMutant(makeMutant(verdict.seed))}\n${unexpected.join('\n')}`);
  }
  // The mix reached both outcomes, so the properties were exercised on each.
  const outcomes = new Set(run.verdicts.map((verdict) => verdict.outcome));
  assert.ok(outcomes.has('clean') && outcomes.has('diagnostics'), [...outcomes].join(', '));
});

test('validate-pack as a process on mutants: exit 0 or 1, 2 only for an unreadable file, never a stack trace', async () => {
  const runs = await cliRuns;
  const chosen = runs.map(({ mutant }) => verdicts.get(mutant.seed) ?? checkMutant(mutant, workDir));
  assert.ok(chosen.some((verdict) => verdict.sameMeaning) && chosen.some((verdict) => verdict.outcome === 'diagnostics'), 'the chosen seeds no longer cover a clean and a broken pack');
  runs.forEach(({ mutant, run: { code, stdout, stderr } }, index) => {
    const verdict = chosen[index]!;
    const shown = `${describeMutant(mutant)}\nexit ${code}\n${stderr}`;
    if (knownFailure(mutant.seed)) return; // recorded in KNOWN_ENGINE_FAILURES, stack and all
    assert.ok(code === 0 || code === 1, shown);
    assert.not.match(stderr, STACK, shown);
    assert.ok(stdout.length > 0, shown);
    // Diagnostics in-process mean a failing exit; the same data as the source means a passing one.
    if (verdict.outcome === 'diagnostics') assert.is(code, 1, shown);
    if (verdict.sameMeaning) assert.is(code, 0, shown);
  });
  const unreadable = await unreadableRun;
  assert.is(unreadable.code, 2, `${unreadable.stdout}\n${unreadable.stderr}`);
  assert.not.match(unreadable.stderr, STACK, unreadable.stderr);
  assert.match(unreadable.stdout, /unreadable\.yaml/);
});

test.run();
