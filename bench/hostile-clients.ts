/**
 * Hostile clients: the service as `npm start` runs it (load shedding at its shipped 100 ms), alone
 * and as a fleet of two workers, while 127.0.0.1 sends 4 connections of query-string bombs, then 50
 * connections of searches for new terms; meanwhile 127.0.0.2 asks for calculations one after
 * another, each followed by two health checks. Prints, per run, the other address's calculation
 * statuses and its health checks' median and slowest times, and what the attacker got.
 * `npm test` runs a bounded slice of this (test/server/hostile-clients.test.ts).
 *
 *   npm run load:hostile                        10 calculations per run
 *   npm run load:hostile -- --calculations=50
 */
import { median, underAttack, type HostileRun } from '../test/server/hostile-load.ts';

const calculations = Number(/^--calculations=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--calculations=')) ?? '')?.[1] ?? 10);
const attacks: Omit<HostileRun, 'env' | 'calculations'>[] = [
  { kind: 'query-bomb', connections: 4 },
  { kind: 'search', connections: 50 },
];

let missed = false;
for (const processes of ['1', '2']) {
  for (const attack of attacks) {
    const result = await underAttack({ ...attack, calculations, env: { WEB_CONCURRENCY: processes } });
    const times = result.health.map((check) => check.ms);
    const answered = result.calculations.filter((calculation) => calculation.status === 200).length;
    const healthy = result.health.filter((check) => check.status === 200).length;
    const p50 = median(times);
    missed ||= answered < calculations || healthy < result.health.length || p50 >= 100;
    console.log(
      [
        `WEB_CONCURRENCY=${processes} ${attack.connections} x ${attack.kind}`,
        `calculations ${answered}/${calculations} 200 (${result.calculations.flatMap((calculation) => calculation.refusedWith ?? []).join(', ') || 'no refusals'})`,
        `health ${healthy}/${result.health.length} 200, p50 ${p50.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
        `attacker ${JSON.stringify(result.attacker)}`,
      ].join('; '),
    );
  }
}
console.log(missed ? 'MISS: a run fell short of 10 of 10 calculations, every health check 200 with p50 under 100 ms' : 'every run: all calculations and health checks 200, health p50 under 100 ms');
process.exitCode = missed ? 1 : 0;
