import { Agent, request as httpRequest } from 'node:http';
import { processTreeCpuSeconds } from './process-cpu.ts';
import { median } from './measure.ts';

/** One calculation as a pay run's item and as a single calculate request: the same calculator and facts. */
export interface PayRunWork {
  calculatorId: string;
  facts: unknown;
}

export interface PayRunCpu {
  items: number;
  rounds: number;
  /** Server CPU, in milliseconds, for all the items sent as single calculate requests (median of the rounds). */
  singlesCpuMs: number;
  /** Server CPU, in milliseconds, for the same items sent as one pay run (median of the rounds). */
  payRunCpuMs: number;
  /** payRunCpuMs / singlesCpuMs: under 1 means the run costs the server less. */
  ratio: number;
}

/** Sends a request on a keep-alive agent and reads the whole answer; rejects on anything but 200. */
function post(agent: Agent, port: number, path: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.once('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${res.statusCode}`))));
    });
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * Server CPU for the same calculations sent two ways, measured on one running service (started with
 * API_EXTENSIONS=pay-runs and no rate limit) in alternating rounds: as single calculate requests
 * over `connections` keep-alive connections, and as one pay run. CPU is read from /proc around each
 * half, so the load generator's own work is not counted.
 */
export async function payRunCpu(options: { port: number; pid: number; work: readonly PayRunWork[]; rounds: number; connections?: number }): Promise<PayRunCpu> {
  const { port, pid, work, rounds } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 8 });
  const singles = work.map(({ calculatorId, facts }) => ({ path: `/api/v1/calculators/${calculatorId}/calculate`, body: JSON.stringify({ facts }) }));
  const run = JSON.stringify({ items: work.map(({ calculatorId, facts }, index) => ({ id: `item-${index}`, calculatorId, facts })) });
  const cpuMs = async (send: () => Promise<unknown>): Promise<number> => {
    const before = processTreeCpuSeconds(pid);
    await send();
    const after = processTreeCpuSeconds(pid);
    if (before === undefined || after === undefined) throw new Error('server CPU can only be read from /proc (Linux)');
    return (after - before) * 1000;
  };
  const sendSingles = () => Promise.all(singles.map(({ path, body }) => post(agent, port, path, body)));
  const sendRun = () => post(agent, port, '/api/v1/pay-runs', run);
  // Warm both paths up before measuring.
  await sendSingles();
  await sendRun();
  const singlesCpu: number[] = [];
  const runCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    singlesCpu.push(await cpuMs(sendSingles));
    runCpu.push(await cpuMs(sendRun));
  }
  agent.destroy();
  const singlesCpuMs = median(singlesCpu);
  const payRunCpuMs = median(runCpu);
  return { items: work.length, rounds, singlesCpuMs, payRunCpuMs, ratio: payRunCpuMs / singlesCpuMs };
}
