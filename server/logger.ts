import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Log text kept for a reader that is not keeping up; beyond this, new lines are dropped rather than held. */
const LOG_BUFFER_LIMIT = 16 * 1024 * 1024;
/** How long an exit waits for a log reader that is not reading to take the lines still buffered. */
const EXIT_LOG_WAIT_MS = 1000;
/** A second stop signal asks for an exit at once: it waits only this long for the log reader. */
export const SECOND_SIGNAL_LOG_WAIT_MS = 100;

/** Where the service's log lines go, and how an exit waits for them to leave. */
interface LogDestination extends DestinationStream {
  /** Calls `done` once every line written so far has left the process, or after `withinMs`. */
  whenWritten(withinMs: number, done: () => void): void;
}

let stdout: LogDestination | undefined;

/**
 * The service's logger: one JSON line per event on stdout, with the level as a word, an ISO time and
 * the process id; by convention the first field logged is `event`, naming what happened
 * (`listening`, `request`, `stopping`, ...).
 */
export function createLogger(destination: DestinationStream = (stdout ??= openStdout())): Logger {
  return pino(
    {
      base: { pid: process.pid },
      timestamp: isoTimeOncePerMillisecond,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

let stampedAt = 0;
let stamp = '';

/**
 * pino's `isoTime` field, formatted once per millisecond: a busy service writes several lines in the
 * same one, and formatting a date was about half of what a request's log line cost.
 */
function isoTimeOncePerMillisecond(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/**
 * Stdout, written so that a log reader can never stop the process. A pipe or socket (a log
 * collector, a supervisor, a container runtime) is written through a non-blocking socket: lines
 * wait in memory while the reader is slow, up to LOG_BUFFER_LIMIT, after which new lines are dropped
 * until it reads again. Written the usual way, a reader that had stopped reading left a write
 * blocked in the kernel, and the process could not exit. A file or a terminal is written by pino's
 * own asynchronous destination.
 */
function openStdout(): LogDestination {
  const kind = fstatSync(1);
  if (kind.isFIFO() || kind.isSocket()) {
    const socket = new Socket({ fd: 1, readable: false, writable: true });
    socket.unref();
    // A reader that has gone away: the lines are lost, the service goes on.
    socket.on('error', () => undefined);
    return {
      write(line: string) {
        if (!socket.destroyed && socket.writableLength < LOG_BUFFER_LIMIT) socket.write(line);
      },
      whenWritten(withinMs, done) {
        if (socket.destroyed || socket.writableLength === 0) return done();
        const giveUp = setTimeout(done, withinMs);
        socket.once('drain', () => {
          clearTimeout(giveUp);
          done();
        });
      },
    };
  }
  const file = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_LIMIT });
  // pino writes what is left to a file or terminal as the process exits.
  return { write: (line: string) => file.write(line), whenWritten: (_withinMs, done) => done() };
}

/**
 * Ends the process with `code` once the log lines written so far have left it, or after `withinMs`
 * if the log reader is not taking them.
 */
export function exitAfterLogs(code: number, withinMs = EXIT_LOG_WAIT_MS): void {
  if (!stdout) process.exit(code);
  else stdout.whenWritten(withinMs, () => process.exit(code));
}

/** Name and stack frames of an error, without its message, which can quote a request's values. */
export function describeError(error: unknown): { name: string; frames: string[] } {
  if (!(error instanceof Error)) return { name: typeof error, frames: [] };
  return { name: error.name, frames: (error.stack ?? '').split('\n').slice(1).map((frame) => frame.trim()) };
}
