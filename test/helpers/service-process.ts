import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from './packs.ts';

/** The service in a process of its own, as `npm start` runs it from the sources, configured by its environment. */
export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts `server/main.ts` under Node with tsx as an import hook (so signals reach the server itself)
 * on a free port, and resolves once it says it is listening.
 */
export function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) resolve({ child, url: JSON.parse(line).url, output: () => output, exited });
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
