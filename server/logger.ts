import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * The service's logger: one JSON line per event on stdout, with the level as a word, an ISO time and
 * the process id; by convention the first field logged is `event`, naming what happened
 * (`listening`, `request`, `stopping`, ...).
 * Writes are asynchronous, so lines logged while a write is under way go out together in the next;
 * pino flushes what is left when the process exits.
 */
export function createLogger(destination: DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino(
    {
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** Name and stack frames of an error, without its message, which can quote a request's values. */
export function describeError(error: unknown): { name: string; frames: string[] } {
  if (!(error instanceof Error)) return { name: typeof error, frames: [] };
  return { name: error.name, frames: (error.stack ?? '').split('\n').slice(1).map((frame) => frame.trim()) };
}
