import { Agent, request } from 'node:http';

/** One request of the load and what became of it. */
export interface LoadRequest {
  /** The request was wholly written before `markSignal` was called. */
  sentBeforeSignal: boolean;
  status?: number;
  connectionClose?: boolean;
  error?: string;
}

export interface KeepAliveLoad {
  requests: LoadRequest[];
  /** Resolves once every connection has answered at least `count` requests. */
  warmedUp(count: number): Promise<void>;
  /** Call just before the signal: from here on, requests count as sent after it. */
  markSignal(): void;
  /** Resolves when every connection has stopped (on an error or a `connection: close` answer). */
  finished: Promise<void>;
}

/**
 * Keeps `connections` keep-alive connections busy, each sending its next calculate request as soon
 * as the last is answered, until the server answers with `connection: close` or the connection fails.
 */
export function startKeepAliveLoad(url: string, connections: number, path: string, body: string): KeepAliveLoad {
  const { hostname, port } = new URL(url);
  const requests: LoadRequest[] = [];
  const answered = new Array<number>(connections).fill(0);
  let signalled = false;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const checkWaiters = () => {
    for (const waiter of [...waiters]) {
      if (answered.every((count) => count >= waiter.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const loop = (index: number): Promise<void> =>
    new Promise((done) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const next = () => {
        const record: LoadRequest = { sentBeforeSignal: false };
        requests.push(record);
        const finish = (stop: boolean) => {
          if (!stop) return next();
          agent.destroy();
          answered[index] = Infinity;
          checkWaiters();
          done();
        };
        const req = request(
          { host: hostname, port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (response) => {
            response.resume();
            response.on('end', () => {
              record.status = response.statusCode;
              record.connectionClose = response.headers.connection === 'close';
              answered[index]! += 1;
              checkWaiters();
              finish(record.connectionClose);
            });
          },
        );
        req.on('finish', () => (record.sentBeforeSignal = !signalled));
        req.on('error', (error) => {
          record.error = (error as NodeJS.ErrnoException).code ?? error.message;
          finish(true);
        });
        req.end(body);
      };
      next();
    });

  const finished = Promise.all(Array.from({ length: connections }, (_, index) => loop(index))).then(() => undefined);
  return {
    requests,
    warmedUp: (count) => new Promise((resolve) => {
      waiters.push({ count, resolve });
      checkWaiters();
    }),
    markSignal: () => (signalled = true),
    finished,
  };
}
