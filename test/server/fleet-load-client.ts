import { Agent, request } from 'node:http';

// A load client in a process of its own, so that the clients' work does not slow the test that
// signals the service, and the service's clock is not the clients' clock: kept-alive connections,
// each sending its next request once the last is answered, and a stream of new connections, each
// with one request. Started by `startLoadClient`; talks to its parent over IPC.

/** What the load is, sent by the parent first. */
export interface LoadPlan {
  url: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  keptAlive: number;
  /** A new connection every this many milliseconds; 0 for none. */
  newConnectionEveryMs: number;
}

/** One request and what became of it; times are milliseconds since the epoch, comparable across processes. */
export interface LoadRecord {
  connection: 'kept-alive' | 'new';
  openedAt: number;
  /** When the request was wholly written, if it was. */
  writtenAt?: number;
  /** When the client got its answer, an error, or a close. */
  endedAt?: number;
  status?: number;
  connectionClose?: boolean;
  error?: string;
}

/** What the client reports once told to stop: every request, and those still waiting. */
export interface LoadReport {
  records: LoadRecord[];
}

export type ToClient = { plan: LoadPlan } | { stop: { waitMs: number } };
export type FromClient = { warmedUp: true } | { report: LoadReport };

const now = () => performance.timeOrigin + performance.now();

function send(record: LoadRecord, plan: LoadPlan, agent: Agent | false, done: () => void): void {
  const { hostname, port } = new URL(plan.url);
  const headers: Record<string, string | number> = agent === false ? { connection: 'close' } : {};
  if (plan.body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(plan.body) });
  const end = (fields: Partial<LoadRecord>) => {
    if (record.endedAt !== undefined) return;
    Object.assign(record, fields, { endedAt: now() });
    done();
  };
  const outgoing = request({ host: hostname, port, path: plan.path, method: plan.method, agent, headers }, (response) => {
    response.resume();
    response.on('end', () => end({ status: response.statusCode, connectionClose: response.headers.connection === 'close' }));
    response.on('error', (error: NodeJS.ErrnoException) => end({ error: error.code ?? error.message }));
  });
  outgoing.on('finish', () => (record.writtenAt = now()));
  outgoing.on('error', (error: NodeJS.ErrnoException) => end({ error: error.code ?? error.message }));
  outgoing.on('close', () => end({ error: 'closed without an answer' }));
  outgoing.end(plan.body);
}

function run(plan: LoadPlan): void {
  const records: LoadRecord[] = [];
  const answered = new Array<number>(plan.keptAlive).fill(0);
  let warm = false;
  let stopping = false;
  const agents: Agent[] = [];
  if (plan.keptAlive === 0) process.send!({ warmedUp: true } satisfies FromClient);
  for (let index = 0; index < plan.keptAlive; index++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    const next = () => {
      const record: LoadRecord = { connection: 'kept-alive', openedAt: now() };
      records.push(record);
      send(record, plan, agent, () => {
        answered[index]! += 1;
        if (!warm && answered.every((count) => count >= 2)) {
          warm = true;
          process.send!({ warmedUp: true } satisfies FromClient);
        }
        // A connection stops at an error or a `connection: close`, as a keep-alive client would.
        if (record.error === undefined && !record.connectionClose && !stopping) next();
        else agent.destroy();
      });
    };
    next();
  }
  const stream =
    plan.newConnectionEveryMs > 0
      ? setInterval(() => {
          const record: LoadRecord = { connection: 'new', openedAt: now() };
          records.push(record);
          send(record, plan, false, () => undefined);
        }, plan.newConnectionEveryMs)
      : undefined;

  process.on('message', async (message: ToClient) => {
    if (!('stop' in message)) return;
    stopping = true;
    clearInterval(stream);
    for (const deadline = now() + message.stop.waitMs; now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (records.every((record) => record.endedAt !== undefined)) break;
    }
    // Sent (and so copied) before the clients close what is still open.
    process.send!({ report: { records } } satisfies FromClient, () => process.exit(0));
    for (const agent of agents) agent.destroy();
  });
}

process.once('message', (message: ToClient) => {
  if ('plan' in message) run(message.plan);
});
