import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// The service as a separate process, configured by its environment. Node runs it with tsx as a
// loader, in one process: the tsx launcher puts a process of its own in between, which does not
// reliably relay a signal to the server.
const NODE_ARGS = ['--import', 'tsx', 'server/main.ts'];

/** Settings a test run must not inherit from the shell that runs the tests. */
const CHOSEN_BY_TESTS = ['TAX_YEARS', 'DEFAULT_TAX_YEAR', 'RULEPACKS_DIR', 'CALC_ISOLATION'];

export interface Started {
  child: ChildProcess;
  url: string;
  /** The `listening` event the service printed. */
  listening: Record<string, unknown>;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the service with these settings; resolves once it listens, rejects (with its output and exit code) if it exits first. */
export function start(env: Record<string, string>): Promise<Started> {
  const inherited = { ...process.env };
  for (const name of CHOSEN_BY_TESTS) delete inherited[name];
  const child = spawn(process.execPath, NODE_ARGS, { cwd: PROJECT_ROOT, env: { ...inherited, PORT: '0', CALC_CONCURRENCY: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) {
        const listening = JSON.parse(line) as Record<string, unknown>;
        resolve({ child, url: String(listening.url), listening, output: () => output, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => reject(Object.assign(new Error(`exited with ${code}`), { output, code })));
  });
}

/** Starts the service and stops it again (or sees it exit on its own): its exit code and everything it printed. */
export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  try {
    const started = await start(env);
    started.child.kill('SIGTERM');
    return { code: await started.exited, output: started.output() };
  } catch (error) {
    return { code: (error as { code: number | null }).code, output: (error as { output: string }).output };
  }
}
