import { drainUnderLoad } from './fleet-drain-load.ts';

// `npm run test:fleet-drain`: SIGTERM to a fleet of two workers under 200 kept-alive connections and
// a new connection every 2 ms, five times; fails if any request written before a signal was lost.
// `npm test` runs a lighter slice of this (test/server/fleet-faults.test.ts).

const runs = Number(process.env.RUNS ?? 5);
const load = {
  workers: Number(process.env.WORKERS ?? 2),
  keptAlive: Number(process.env.KEPT_ALIVE ?? 200),
  newConnectionEveryMs: Number(process.env.NEW_CONNECTION_EVERY_MS ?? 2),
  loadMs: Number(process.env.LOAD_MS ?? 1500),
};

let failed = 0;
for (let run = 1; run <= runs; run++) {
  const result = await drainUnderLoad(load);
  const bad = result.lost.length > 0 || result.hanging > 0 || result.exitCode !== 0;
  if (bad) failed++;
  console.log(
    JSON.stringify({
      run,
      ...load,
      exitCode: result.exitCode,
      writtenBeforeSignal: result.writtenBeforeSignal,
      lost: result.lost.length,
      lostWrittenBeforeSignalMs: result.lost.map((lost) => lost.writtenBeforeSignalMs ?? lost.connection),
      errors: [...new Set(result.lost.map((lost) => lost.error))],
      notOk: result.notOk,
      hanging: result.hanging,
    }),
  );
}
console.log(failed === 0 ? `fleet drain: nothing written before the signal was lost, in ${runs} runs of ${runs}` : `fleet drain: requests lost in ${failed} runs of ${runs}`);
process.exit(failed === 0 ? 0 : 1);
