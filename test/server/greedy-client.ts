import { connect, type Socket } from 'node:net';

/**
 * A greedy client, run as a process of its own so that its work does not slow the server under test:
 * from one local address it holds a number of connections of each kind for a while, opening a new one
 * whenever one is closed, then reports what the server did with them.
 *   - `silent`: connects and sends nothing;
 *   - `keep-alive`: asks for health, then again every `refreshMs`, never idle long enough to be dropped;
 *   - `slow-reader`: asks for a large asset `readerRequests` times at once (pipelined) and stops
 *     reading. After the attack it reads what is left, to learn whether the server cut it off or
 *     would have sent everything.
 */
export interface GreedyPlan {
  port: number;
  localAddress: string;
  counts: Record<GreedyKind, number>;
  attackMs: number;
  refreshMs: number;
  reopenAfterMs: number;
  largePath: string;
  readerRequests: number;
}

export type GreedyKind = 'silent' | 'keep-alive' | 'slow-reader';

/** What happened to the connections of one kind. */
export interface GreedyOutcome {
  opened: number;
  /** Answered with a 503 as their first bytes. */
  refused: number;
  /** Answered with a 200 as their first bytes (never, for silent ones). */
  admitted: number;
  /** Ended by a reset with no answer at all. */
  resetUnanswered: number;
  /** Admitted slow readers cut off before the whole answer arrived, and those that got all of it. */
  cutOff: number;
  completed: number;
}

interface Connection {
  kind: GreedyKind;
  socket: Socket;
  head: string;
  bytes: number;
  expectedBytes?: number;
  closed: boolean;
  ended: boolean;
  reset: boolean;
  /** A slow reader stops reading once, at its first chunk, and reads again only when the attack ends. */
  stoppedReading?: boolean;
}

function run(plan: GreedyPlan): Promise<Record<GreedyKind, GreedyOutcome>> {
  const all: Connection[] = [];
  let attacking = true;
  const open = (kind: GreedyKind) => {
    const socket = connect({ port: plan.port, host: '127.0.0.1', localAddress: plan.localAddress });
    const connection: Connection = { kind, socket, head: '', bytes: 0, closed: false, ended: false, reset: false };
    all.push(connection);
    socket.on('data', (chunk: Buffer) => {
      if (connection.head.length < 400) {
        connection.head += chunk.subarray(0, 400).toString('latin1');
        const length = /content-length: (\d+)/i.exec(connection.head);
        const headEnd = connection.head.indexOf('\r\n\r\n');
        // Every answer to the reader's requests is the same, so all of them come to this many bytes.
        if (length && headEnd >= 0 && connection.expectedBytes === undefined) connection.expectedBytes = (headEnd + 4 + Number(length[1])) * (kind === 'slow-reader' ? plan.readerRequests : 1);
      }
      connection.bytes += chunk.length;
      // Read the first chunk (the head of the first answer), then stop: the server's writes back up.
      // Stopping 20 ms after connecting instead let a fast reader take 10 of its 14 MB first, and
      // the kernel's buffers the rest, so the server finished writing before its deadline.
      if (kind === 'slow-reader' && !connection.stoppedReading) {
        connection.stoppedReading = true;
        socket.pause();
      }
    });
    socket.on('end', () => (connection.ended = true));
    socket.on('error', (error: NodeJS.ErrnoException) => (connection.reset ||= error.code === 'ECONNRESET'));
    socket.on('close', () => {
      connection.closed = true;
      if (attacking) setTimeout(() => attacking && open(kind), plan.reopenAfterMs);
    });
    socket.on('connect', () => {
      if (kind === 'keep-alive') socket.write('GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n');
      if (kind === 'slow-reader') {
        socket.write(`GET ${plan.largePath} HTTP/1.1\r\nhost: x\r\n\r\n`.repeat(plan.readerRequests));
      }
    });
  };
  // Interleaved, so that every kind is among the connections the server takes.
  const kinds = Object.keys(plan.counts) as GreedyKind[];
  for (let index = 0; index < Math.max(...Object.values(plan.counts)); index++) for (const kind of kinds) if (index < plan.counts[kind]) open(kind);
  const refresh = setInterval(() => {
    for (const connection of all) if (connection.kind === 'keep-alive' && !connection.closed && !connection.socket.connecting) connection.socket.write('GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n');
  }, plan.refreshMs);

  return new Promise((resolve) => {
    setTimeout(() => {
      attacking = false;
      clearInterval(refresh);
      // Let the slow readers read again: one the server cut off ends short of its answer.
      for (const connection of all) if (connection.kind === 'slow-reader' && !connection.closed) connection.socket.resume();
      setTimeout(() => {
        const outcomes = {} as Record<GreedyKind, GreedyOutcome>;
        for (const kind of Object.keys(plan.counts) as GreedyKind[]) {
          const mine = all.filter((connection) => connection.kind === kind);
          const admitted = mine.filter((connection) => connection.head.startsWith('HTTP/1.1 200'));
          const readers = kind === 'slow-reader' ? admitted : [];
          outcomes[kind] = {
            opened: mine.length,
            refused: mine.filter((connection) => connection.head.startsWith('HTTP/1.1 503')).length,
            admitted: admitted.length,
            resetUnanswered: mine.filter((connection) => connection.reset && connection.head === '').length,
            cutOff: readers.filter((connection) => connection.closed && connection.bytes < (connection.expectedBytes ?? Infinity)).length,
            completed: readers.filter((connection) => connection.bytes >= (connection.expectedBytes ?? Infinity)).length,
          };
        }
        for (const connection of all) connection.socket.destroy();
        resolve(outcomes);
      }, 1000);
    }, plan.attackMs);
  });
}

if (process.send) {
  process.once('message', (plan: GreedyPlan) => {
    void run(plan).then((outcomes) => process.send!(outcomes, () => process.disconnect()));
  });
}
