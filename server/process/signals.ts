import { constants } from 'node:os';

/**
 * A signal that arrives this soon after the first is the same request to stop, delivered twice: a
 * Ctrl-C in a terminal reaches every process of the foreground group, and `npm start` then forwards
 * its own copy to the server.
 */
export const REPEAT_WINDOW_MS = 500;

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code a shell reports for a process ended by this signal (128 + its number). */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * Calls `stop` on the first SIGTERM or SIGINT, and `stopNow` on a later one: the first asks for a
 * graceful drain, a second means the operator will not wait for it.
 */
export function onStopSignals(handlers: { stop: (signal: StopSignal) => void; stopNow: (signal: StopSignal) => void }): void {
  let firstAt: number | undefined;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      const now = performance.now();
      if (firstAt === undefined) {
        firstAt = now;
        handlers.stop(signal);
      } else if (now - firstAt >= REPEAT_WINDOW_MS) handlers.stopNow(signal);
    });
  }
}
