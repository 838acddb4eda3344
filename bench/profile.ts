/**
 * CPU profile of one engine bench loop (V8's sampling profiler, as `node --cpu-prof` uses), with
 * a summary of where the time goes: functions by self and inclusive time, and time by module.
 *
 *   npm run bench:profile                                  take-home report with trace, 5 s
 *   npm run bench:profile -- --loop=annual.report --seconds=5 --out=/tmp/profiles
 *   npm run bench:profile -- --summarize=some.cpuprofile   summarise a profile written elsewhere
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatSummary, summarizeProfile, type CpuProfile } from './lib/cpuprofile.ts';
import { measureFor } from './lib/measure.ts';
import { loadShipped } from './lib/packs.ts';
import { pinToOneCore } from './lib/pin.ts';
import { benchSetup, scenarios } from './lib/scenarios.ts';

const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const rows = Number(argument('rows') ?? 20);

const given = argument('summarize');
if (given) {
  process.stdout.write(`${formatSummary(given, summarizeProfile(JSON.parse(readFileSync(given, 'utf8')) as CpuProfile, 60), rows)}\n`);
  process.exit(0);
}

const loopId = argument('loop') ?? 'take-home.report';
const seconds = Number(argument('seconds') ?? 5);
const out = argument('out') ?? join(tmpdir(), 'tax-rules-bench-profiles');
const pinning = pinToOneCore(0);

const { takeHome, annual } = loadShipped();
const loop = scenarios(benchSetup(takeHome, annual)).find((candidate) => candidate.id === loopId);
if (!loop) throw new Error(`no loop ${loopId}`);
measureFor(loop.run, 1500); // warm up before sampling, so the profile shows steady state

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const measured = measureFor(loop.run, seconds * 1000);
const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
session.disconnect();

mkdirSync(out, { recursive: true });
const file = join(out, `${loopId}.cpuprofile`);
writeFileSync(file, JSON.stringify(profile));
process.stdout.write(`${loopId}: ${Math.round(measured.opsPerSec).toLocaleString('en')} calcs/s while profiling (${pinning}); profile written to ${file}\n\n`);
process.stdout.write(`${formatSummary(loopId, summarizeProfile(profile, 60), rows)}\n`);
