import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
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
 * same one, and formatting a date is a large part of what a request's log line costs
 * (bench/README.md, "Figures behind the code").
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
 * own asynchronous destination. Either way, the lines of one turn of the event loop leave together.
 */
function openStdout(): LogDestination {
  const kind = fstatSync(1);
  if (kind.isFIFO() || kind.isSocket()) {
    const socket = new Socket({ fd: 1, readable: false, writable: true });
    socket.unref();
    // A reader that has gone away: the lines are lost, the service goes on.
    socket.on('error', () => undefined);
    let unwritten = 0;
    let waiting: (() => void)[] = [];
    const written = () => {
      if (unwritten > 0 || lines.length > 0) return;
      const done = waiting;
      waiting = [];
      for (const wake of done) wake();
    };
    // A fleet's primary, which relays its workers' lines, then also reads them in one go.
    const lines = turnBatch((text) => {
      unwritten++;
      socket.write(text, () => {
        unwritten--;
        written();
      });
    });
    return {
      write(line: string) {
        if (socket.destroyed || socket.writableLength + lines.length >= LOG_BUFFER_LIMIT) return;
        lines.add(line);
      },
      whenWritten(withinMs, done) {
        if (socket.destroyed || (unwritten === 0 && lines.length === 0)) return done();
        let called = false;
        const once = () => {
          if (called) return;
          called = true;
          clearTimeout(giveUp);
          done();
        };
        const giveUp = setTimeout(once, withinMs);
        waiting.push(once);
      },
    };
  }
  const file = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_LIMIT });
  // pino's destination measures everything it still holds on each write: one write a turn, not a line.
  const lines = turnBatch((text) => file.write(text));
  return {
    write: (line: string) => lines.add(line),
    // pino writes what it holds to a file or terminal as the process exits.
    whenWritten(_withinMs, done) {
      lines.flush();
      done();
    },
  };
}

/**
 * The lines written in one turn of the event loop, handed on together when the turn ends (or at
 * `flush`): a busy service logs some twenty requests a turn.
 */
function turnBatch(handOn: (text: string) => void): { add(line: string): void; flush(): void; readonly length: number } {
  let batch = '';
  const flush = () => {
    if (batch === '') return;
    const text = batch;
    batch = '';
    handOn(text);
  };
  return {
    add(line) {
      if (batch === '') setImmediate(flush);
      batch += line;
    },
    flush,
    get length() {
      return batch.length;
    },
  };
}

/** The most text a relay holds of one unfinished line before passing it on as it is. */
const PARTIAL_LINE_LIMIT = 1024 * 1024;

/** Relays still reading: an exit waits for them to reach the end of their stream. */
const openRelays = new Set<Promise<void>>();

/**
 * Passes another process's log lines on to this process's stdout, whole lines at a time. A fleet's
 * workers each log to a pipe of their own, read here by the primary, so that stdout has one writer.
 * When every worker wrote to the one stdout, a reader that fell behind got lines cut into one
 * another: a full pipe or socket takes part of a write, and another process's write lands next.
 */
export function relayLogLines(stream: Readable): void {
  const destination = (stdout ??= openStdout());
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline === -1) {
      partial += text;
      if (partial.length < PARTIAL_LINE_LIMIT) return;
      destination.write(partial);
      partial = '';
      return;
    }
    destination.write(partial + text.slice(0, lastNewline + 1));
    partial = text.slice(lastNewline + 1);
  });
  const ended = new Promise<void>((resolve) => {
    stream.once('close', () => {
      if (partial) destination.write(`${partial}\n`);
      openRelays.delete(ended);
      resolve();
    });
  });
  openRelays.add(ended);
}

/**
 * Ends the process with `code` once the log lines written so far, and those its relays are still
 * reading, have left it, or after `withinMs` if the log reader is not taking them.
 */
export function exitAfterLogs(code: number, withinMs = EXIT_LOG_WAIT_MS): void {
  const started = performance.now();
  const exitOnceWritten = () => {
    if (!stdout) process.exit(code);
    else stdout.whenWritten(Math.max(0, withinMs - (performance.now() - started)), () => process.exit(code));
  };
  if (openRelays.size === 0) return exitOnceWritten();
  const giveUp = setTimeout(exitOnceWritten, withinMs);
  void Promise.all(openRelays).then(() => {
    clearTimeout(giveUp);
    exitOnceWritten();
  });
}

/** Name and stack frames of an error, without its message, which can quote a request's values. */
export function describeError(error: unknown): { name: string; frames: string[] } {
  if (!(error instanceof Error)) return { name: typeof error, frames: [] };
  return { name: error.name, frames: (error.stack ?? '').split('\n').slice(1).map((frame) => frame.trim()) };
}
