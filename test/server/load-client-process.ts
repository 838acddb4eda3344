import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromClient, LoadPlan, LoadReport, ToClient } from './fleet-load-client.ts';

export type { LoadRecord } from './fleet-load-client.ts';

/** A load client running in a process of its own (see fleet-load-client.ts). */
export interface LoadClient {
  /** Resolves once every kept-alive connection has had two answers. */
  warmedUp: Promise<void>;
  /** Stops the load; resolves with every request once all have ended, or after `waitMs` with some still waiting. */
  stop(waitMs: number): Promise<LoadReport>;
}

/** The current time in milliseconds since the epoch, as the load client records it. */
export const clockNow = () => performance.timeOrigin + performance.now();

export function startLoadClient(plan: LoadPlan): LoadClient {
  const child = fork(fileURLToPath(new URL('fleet-load-client.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the load client exited with ${code}`))));
  const next = <T>(pick: (message: FromClient) => T | undefined): Promise<T> =>
    Promise.race([
      exited,
      new Promise<T>((resolve) => {
        const listener = (message: FromClient) => {
          const value = pick(message);
          if (value === undefined) return;
          child.off('message', listener);
          resolve(value);
        };
        child.on('message', listener);
      }),
    ]);
  const warmedUp = next((message) => ('warmedUp' in message ? true : undefined)).then(() => undefined);
  const report = next((message) => ('report' in message ? message.report : undefined));
  child.send({ plan } satisfies ToClient);
  return {
    warmedUp,
    stop(waitMs) {
      child.send({ stop: { waitMs } } satisfies ToClient);
      return report;
    },
  };
}
