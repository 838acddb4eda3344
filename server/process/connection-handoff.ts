import type { Worker } from 'node:cluster';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionIntake } from './drain.ts';

// A fleet's connections: the primary alone accepts them, unread, and hands each to a worker over
// the channel between them. Node's own round-robin does the same, but holds what it has accepted out
// of reach: when the last worker stops listening it resets every connection still waiting for a
// worker, and a connection on its way to a worker that dies is never closed. Here the primary keeps
// every connection until a worker has taken it, and decides itself when the listener closes.

/** Primary to worker, with the connection. */
interface ConnectionMessage {
  type: 'connection';
}
/** Worker to primary: the connection sent last has been taken, before anything was read from it. */
interface TakenMessage {
  type: 'connection-taken';
}
/** Worker to primary: the worker is ready to take connections. */
interface ServingMessage {
  type: 'serving';
}
/** Primary to worker: everything accepted has been handed over, and the listener is closed. */
interface LastHandedMessage {
  type: 'no-more-connections';
}

const isMessage = <Message extends { type: string }>(message: unknown, type: Message['type']): message is Message =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** The primary's side: the connections accepted and not yet taken, and the workers that take them. */
export interface Handoff {
  /** A connection the listener accepted, paused: nothing is read from it here. */
  take(socket: Socket): void;
  /** Has a worker take connections once it says it is serving; resolves then. */
  join(worker: Worker): Promise<void>;
  /** A worker gone, once every message it sent has been read: the connection on its way to it, never taken, goes to another. */
  leave(worker: Worker): void;
  /**
   * Once the listener is closed: resolves when every connection has been taken by a worker, and
   * tells each worker that no more will come. Connections left with no worker to take them are closed.
   */
  finish(): Promise<void>;
}

/**
 * Hands connections to workers in turn, one at a time per worker: a worker gets its next connection
 * once it has taken the last, so a busy worker does not collect a queue while another is idle.
 */
export function createHandoff(): Handoff {
  const waiting: Socket[] = [];
  const free: Worker[] = [];
  const members = new Map<number, Worker>();
  const sentTo = new Map<number, Socket>();
  let finishing: (() => void) | undefined;
  let finished = false;

  const handTo = (worker: Worker, socket: Socket) => {
    sentTo.set(worker.id, socket);
    // The primary keeps its own copy of the connection until the worker says it has taken it.
    worker.send({ type: 'connection' } satisfies ConnectionMessage, socket, { keepOpen: true }, (error) => {
      if (error) leave(worker);
    });
  };
  const dispatch = () => {
    while (waiting.length > 0 && free.length > 0) handTo(free.shift()!, waiting.shift()!);
    if (finishing && (members.size === 0 || (waiting.length === 0 && sentTo.size === 0))) {
      for (const socket of waiting.splice(0)) socket.destroy();
      for (const worker of members.values()) if (worker.isConnected()) worker.send({ type: 'no-more-connections' } satisfies LastHandedMessage);
      finishing();
      finishing = undefined;
      finished = true;
    }
  };
  const taken = (worker: Worker) => {
    sentTo.get(worker.id)?.destroy();
    sentTo.delete(worker.id);
    if (members.has(worker.id)) free.push(worker);
    dispatch();
  };
  const leave = (worker: Worker) => {
    if (!members.delete(worker.id)) return;
    const index = free.indexOf(worker);
    if (index >= 0) free.splice(index, 1);
    const untaken = sentTo.get(worker.id);
    sentTo.delete(worker.id);
    // The worker's messages were all read and none said it took this one: it never read from it.
    if (untaken) waiting.unshift(untaken);
    dispatch();
  };

  return {
    take(socket) {
      // A client that gives up while its connection waits here has it closed by whichever worker takes it.
      socket.on('error', () => undefined);
      waiting.push(socket);
      dispatch();
    },
    join(worker) {
      return new Promise((resolve) => {
        worker.on('message', (message: unknown) => {
          if (isMessage<TakenMessage>(message, 'connection-taken')) taken(worker);
          else if (isMessage<ServingMessage>(message, 'serving') && !members.has(worker.id)) {
            resolve();
            // A worker ready after the last connection was handed over gets none.
            if (finished) {
              worker.send({ type: 'no-more-connections' } satisfies LastHandedMessage);
              return;
            }
            members.set(worker.id, worker);
            free.push(worker);
            dispatch();
          }
        });
      });
    },
    leave,
    finish() {
      return new Promise((resolve) => {
        finishing = resolve;
        dispatch();
      });
    },
  };
}

/**
 * In a worker: tells the primary that this server takes connections, and from then on gives the
 * server each one the primary hands over. The intake it returns stops when the primary says it has
 * handed over its last.
 */
export function takeConnectionsFromPrimary(server: Server): ConnectionIntake {
  let lastHanded!: () => void;
  const noMore = new Promise<void>((resolve) => (lastHanded = resolve));
  process.on('message', (message: unknown, socket?: Socket) => {
    if (isMessage<ConnectionMessage>(message, 'connection')) {
      // Said before this turn ends, so before the loop reads anything from the connection.
      process.send!({ type: 'connection-taken' } satisfies TakenMessage);
      if (socket) server.emit('connection', socket);
    } else if (isMessage<LastHandedMessage>(message, 'no-more-connections')) lastHanded();
  });
  // The HTTP server starts checking its connections' header and request deadlines when it starts
  // listening; this one never listens itself, so it is told that it now serves.
  server.emit('listening');
  process.send!({ type: 'serving' } satisfies ServingMessage);
  return { stop: () => noMore };
}
