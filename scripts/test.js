#!/usr/bin/env node
// The suite's runner: every test file under test/, run with uvu in lanes, one process per lane (two
// on a machine with two cores or more, TEST_LANES to choose). Each lane takes the next file when it
// is done with one, so the lanes finish together whatever the files cost; each file's output is
// printed whole once it is done.
//
//   node scripts/test.js                      every test file (what `npm test` runs after its checks)
//   node scripts/test.js --fast               without the files marked `// Lane: services` (they
//                                             start services, browsers, Redis or a build)
//   node scripts/test.js test/server/limits   only the files whose path contains one of the words
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVICES_MARKER = /^\/\/ Lane: services\b/m;

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const fast = args.includes('--fast');
const words = args.filter((arg) => !arg.startsWith('--'));
const lanesSetting = process.env.TEST_LANES;
const laneCount = lanesSetting === undefined ? Math.min(2, availableParallelism()) : Number(lanesSetting);
if (!Number.isInteger(laneCount) || laneCount < 1) {
  console.error('TEST_LANES must be a whole number of lanes, 1 or more');
  process.exit(2);
}

// The files that start services go first: they take longest, and a long file started last would
// leave the other lanes idle while it runs.
const all = testFiles(join(root, 'test')).map((file) => ({ file, name: relative(root, file), services: SERVICES_MARKER.test(readFileSync(file, 'utf8')) }));
const chosen = all.filter((entry) => !(fast && entry.services) && (words.length === 0 || words.some((word) => entry.name.includes(word))));
const queue = [...chosen.filter((entry) => entry.services), ...chosen.filter((entry) => !entry.services)];
if (queue.length === 0) {
  console.error(`no test file matches ${words.join(', ')}`);
  process.exit(2);
}
const left = all.length - chosen.length;
console.log(`${chosen.length} test files in ${Math.min(laneCount, chosen.length)} lanes${fast ? `; leaving out ${left} that start services (npm test runs them)` : left > 0 ? `; ${left} others left out` : ''}`);

// The service's build is brought up to date once, here: lanes that each found it stale would rebuild
// it under one another's running services.
const build = spawnSync('scripts/build-if-stale.sh', { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// A folder for the run, where a lane leaves what the others would otherwise work out again (the
// documentation's compilations, see test/helpers/docs.ts); removed when the run ends.
const runFolder = mkdtempSync(join(tmpdir(), 'tax-rules-test-run-'));
const laneEnvironment = { ...process.env, TAX_RULES_TEST_RUN_FOLDER: runFolder };

const started = performance.now();
const totals = { total: 0, passed: 0, skipped: 0 };
const failedFiles = [];

/** Starts a lane and feeds it files until the queue is empty; a lane that dies fails its file and is replaced. */
function runLane() {
  return new Promise((resolve) => {
    const lane = fork(join(root, 'scripts/test-lane.js'), [], { cwd: root, execArgv: ['--import', 'tsx'], env: laneEnvironment, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let current;
    const next = () => {
      current = queue.shift();
      if (current) lane.send({ file: current.file });
      else lane.send({ done: true });
    };
    lane.on('message', (message) => {
      if (message.ready) return next();
      totals.total += message.total;
      totals.passed += message.passed;
      totals.skipped += message.skipped;
      if (message.failed || message.passed < message.total) failedFiles.push(current.name);
      process.stdout.write(`${current.name} (${(message.ms / 1000).toFixed(1)} s)\n${message.output.trim()}\n\n`);
      next();
    });
    lane.on('exit', (code, signal) => {
      if (current === undefined) return resolve();
      // The lane died with a file unfinished: that file fails, and a new lane takes the rest.
      failedFiles.push(current.name);
      process.stdout.write(`${current.name}: its lane ended (${signal ?? `exit code ${code}`}) before the file was done\n\n`);
      resolve(runLane());
    });
  });
}

await Promise.all(Array.from({ length: Math.min(laneCount, queue.length) }, runLane));
rmSync(runFolder, { recursive: true, force: true });

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`  Total:     ${totals.total}\n  Passed:    ${totals.passed}\n  Skipped:   ${totals.skipped}\n  Duration:  ${seconds} s`);
if (failedFiles.length > 0) console.log(`\n  Failed in: ${failedFiles.join(', ')}`);
process.exit(failedFiles.length > 0 || totals.total === 0 ? 1 : 0);
