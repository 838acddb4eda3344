import { Server as NetServer } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { inFlight } from '../http/in-flight.ts';

/**
 * How long a drain goes on accepting and keeps idle connections open. What clients sent just before
 * the signal may not have reached the service yet: connections the kernel completed wait in the
 * listener's backlog, and closing the listener resets them (a burst of 40 new connections just
 * before SIGTERM lost 15 to 25); a request written on a kept-alive connection may sit unread in its
 * socket buffer, and closing the connection as idle loses it. Node's own `server.close()` does both
 * at once. Readiness says draining from the start, so a balancer stops sending new work meanwhile.
 */
export const DRAIN_GRACE_MS = 250;
/** How long after the grace a drain goes on accepting while connections are still waiting to be accepted. */
const BACKLOG_LIMIT_MS = 1000;

/** Outcome of a drain: `drained` when every connection ended, `budget-exceeded` when some were cut. */
export type DrainOutcome = 'drained' | 'budget-exceeded';

/**
 * Where a server's connections come from: its own listening socket, or a fleet's primary that hands
 * them over. `stop` ends the intake, and resolves once no connection can come any more.
 */
export interface ConnectionIntake {
  stop(budgetMs: number): Promise<void>;
}

/** A server that can be drained: its answers carry `connection: close` once the drain starts. */
export interface DrainableServer {
  server: Server;
  /** Stops the intake, answers what was received, closes every connection; resolves when done or when the budget runs out. */
  drain(budgetMs: number): Promise<DrainOutcome>;
  readonly draining: boolean;
}

/**
 * Makes an HTTP server drainable. Call before the server gets its first connection. Requests in
 * progress are tracked so that their answers, and every answer after the drain starts, say
 * `connection: close`, and keep-alive clients learn to go elsewhere on their last answer.
 */
export function makeDrainable(server: Server, intake: ConnectionIntake = listenerIntake(server)): DrainableServer {
  const inProgress = inFlight<ServerResponse>();
  let draining = false;
  let drainPromise: Promise<DrainOutcome> | undefined;
  // Every connection the server got, by its listener or by hand, until it closes.
  let open = 0;
  let onLastClosed: (() => void) | undefined;
  server.on('connection', (socket: { once(event: 'close', listener: () => void): unknown }) => {
    open++;
    socket.once('close', () => {
      if (--open === 0) onLastClosed?.();
    });
  });

  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('connection', 'close');
    else {
      inProgress.add(response);
      response.once('close', () => inProgress.delete(response));
    }
  });

  const drain = (budgetMs: number): Promise<DrainOutcome> => {
    if (drainPromise) return drainPromise;
    draining = true;
    for (const response of inProgress.snapshot()) {
      if (!response.headersSent) response.setHeader('connection', 'close');
      inProgress.delete(response);
    }
    drainPromise = new Promise<DrainOutcome>((resolve) => {
      const budget = setTimeout(() => {
        server.closeAllConnections();
        resolve('budget-exceeded');
      }, budgetMs);
      // Once no connection can come any more: the idle connections closed once their last requests
      // are read, and the drain done when the last connection has closed. Everything received
      // during the drain is answered with connection: close.
      void intake.stop(budgetMs).then(() => {
        const done = () => {
          clearTimeout(budget);
          resolve('drained');
        };
        if (open === 0) done();
        else onLastClosed = done;
        closeIdleOnceRead(server);
      });
    });
    return drainPromise;
  };

  return {
    server,
    drain,
    get draining() {
      return draining;
    },
  };
}

/**
 * The intake of a server that listens itself: it goes on accepting for the grace, then until a turn
 * of the event loop accepts nothing (the backlog is empty), then stops listening and keeps the
 * connections it has (the plain socket close, not the HTTP server's, which also closes idle ones).
 */
export function listenerIntake(listener: NetServer): ConnectionIntake {
  return {
    stop: (budgetMs) =>
      new Promise((resolve) => {
        const grace = Math.min(DRAIN_GRACE_MS, budgetMs);
        setTimeout(
          () =>
            whenBacklogEmpty(listener, Math.min(BACKLOG_LIMIT_MS, budgetMs - grace), () => {
              NetServer.prototype.close.call(listener);
              resolve();
            }),
          grace,
        );
      }),
  };
}

/**
 * Calls `then` after a turn of the event loop in which the server accepted no connection: the loop
 * accepts a waiting connection in every turn, so a turn without one means none is waiting. A busy
 * loop takes time to get through a backlog (32 of 40 in the grace, on a loaded machine). Waits at
 * most `limitMs`, so that clients that go on connecting cannot keep a draining server listening.
 */
function whenBacklogEmpty(server: NetServer, limitMs: number, then: () => void): void {
  const giveUpAt = performance.now() + limitMs;
  let accepted = false;
  const onConnection = () => (accepted = true);
  server.on('connection', onConnection);
  const check = () => {
    if (accepted && performance.now() < giveUpAt) {
      accepted = false;
      setImmediate(check);
      return;
    }
    server.off('connection', onConnection);
    then();
  };
  setImmediate(check);
}

/**
 * Closes the connections that are idle once the loop has read what its clients sent. Timers run
 * before the loop reads its sockets, so a process that was kept busy (or off the CPU) past the grace
 * has requests waiting unread on connections that look idle; the loop reads them in its next turn,
 * and a connection handed over by a fleet's primary in that turn is read in the one after. Closing
 * after two turns keeps those requests, which would otherwise be reset.
 */
function closeIdleOnceRead(server: Server): void {
  setImmediate(() => setImmediate(() => server.closeIdleConnections()));
}
