import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from './packs.ts';

// The service in a process of its own, started as `npm start` starts it (scripts/start.sh, which
// becomes `node dist/server.js`), configured by its environment. Tests of signals, drains, fleets and
// boot failures need a real process; the compiled service is what operators run, and it starts in a
// fraction of the time that transpiling the sources on every start would take.

/** A running (or exited) service process. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** The `listening` event the service printed. */
  listening: Record<string, unknown>;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  exited: Promise<number | null>;
}

/** Settings a test run must not inherit from the shell that runs the tests. */
const CHOSEN_BY_TESTS = ['TAX_YEARS', 'DEFAULT_TAX_YEAR', 'CALCULATORS', 'RULEPACKS_DIR', 'CALC_ISOLATION', 'WEB_CONCURRENCY', 'REDIS_URL', 'ADMIN_PORT'];

/** The environment a test's service starts with: this run's, without the settings tests choose, plus `env`. */
export function serviceEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const name of CHOSEN_BY_TESTS) delete inherited[name];
  return { ...inherited, PORT: '0', CALC_CONCURRENCY: '1', MAX_EVENT_LOOP_DELAY_MS: '0', ...env };
}

let built = false;

/**
 * Brings dist/ up to date with the sources once per test run, before any service starts: services
 * started side by side must not each find it stale and rebuild it under one another.
 */
export function buildOnce(): void {
  if (built) return;
  const result = spawnSync('scripts/build-if-stale.sh', { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the service could not be built:\n${result.stdout}${result.stderr}`);
  built = true;
}

/**
 * Starts the service on a free port with these settings (one calculation place and no load shedding
 * unless they say otherwise: the tests' own clients share the machine, so a busy machine would read
 * as a saturated service); resolves once it says it is listening, rejects with its output and exit code if it
 * exits first.
 */
export function startService(env: Record<string, string>): Promise<ServiceProcess> {
  buildOnce();
  const child = spawn('scripts/start.sh', [], { cwd: PROJECT_ROOT, env: serviceEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) resolve({ child, url: String(JSON.parse(line).url), listening: JSON.parse(line) as Record<string, unknown>, output: () => output, exited });
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(Object.assign(new Error(`the service exited with ${code}:\n${output}`), { output, code })));
  });
}

/** Stops a service with SIGTERM and waits for it to exit. */
export async function stopService(service: ServiceProcess): Promise<number | null> {
  if (service.child.exitCode === null) service.child.kill('SIGTERM');
  return service.exited;
}

/** Starts the service and stops it again (or sees it exit on its own): its exit code and everything it printed. */
export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  try {
    const started = await startService(env);
    started.child.kill('SIGTERM');
    return { code: await started.exited, output: started.output() };
  } catch (error) {
    return { code: (error as { code: number | null }).code, output: (error as { output: string }).output };
  }
}

/** The JSON lines a started service has written so far, parsed. */
export function logLines(service: ServiceProcess): Record<string, unknown>[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
