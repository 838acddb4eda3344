import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The committed API description: what plain `npm start` serves. */
export const DESCRIPTION_FILE = join(PROJECT_ROOT, 'openapi.json');
/**
 * The description the client is generated from: everything the service can serve (every tax year,
 * calculator and API extension), so that its types cover a service however it is configured.
 */
export const CLIENT_DESCRIPTION_FILE = join(PROJECT_ROOT, 'packages', 'client', 'openapi.json');
/** The settings under which the service serves everything it can. */
export const EVERYTHING_SERVED: Record<string, string> = { TAX_YEARS: 'all', CALCULATORS: 'all', API_EXTENSIONS: 'all' };

/** A service process started as `npm start` starts it, on a free loopback port. */
export interface DefaultService {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the service with the command `npm start` runs (scripts/start.sh, which builds the bundle if
 * it is stale) and no settings but a free port: nothing from the caller's environment leaks in, so
 * what it serves is exactly what plain `npm start` serves.
 */
export function startDefaultService(env: Record<string, string> = {}): Promise<DefaultService> {
  const child = spawn(join(PROJECT_ROOT, 'scripts', 'start.sh'), [], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.includes('"event":"listening"'));
      if (line) {
        child.stdout.removeAllListeners('data');
        child.stdout.resume();
        resolve({
          url: (JSON.parse(line) as { url: string }).url,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(() => reject(new Error(`the service exited before listening:\n${output}`)));
  });
}

/** The API description as the service serves it with these settings (none: plain `npm start`), in the committed files' layout. */
export async function servedDescription(env: Record<string, string> = {}): Promise<string> {
  const service = await startDefaultService(env);
  try {
    const response = await fetch(`${service.url}/api/docs/openapi.json`);
    if (response.status !== 200) throw new Error(`the service answered ${response.status} for its API description`);
    return `${JSON.stringify(await response.json(), null, 2)}\n`;
  } finally {
    await service.stop();
  }
}
