/**
 * Pay-run bench: the server CPU of 1,000 calculations sent as one pay run against the same 1,000
 * sent as single calculate requests, on one service (`node dist/server.js` as `npm start` runs it,
 * with API_EXTENSIONS=pay-runs and no rate limit), in alternating rounds. `npm run bench:http` runs
 * the same comparison after its own scenarios.
 *
 *   npm run bench:pay-run                         options: --items=1000 --rounds=5 --json
 */
import { spawn } from 'node:child_process';
import { freePort } from './lib/free-port.ts';
import { loadShipped, PROJECT_ROOT } from './lib/packs.ts';
import { mixedPayRunWork } from './lib/inputs.ts';
import { payRunCpu } from './lib/pay-run-cpu.ts';
import { send } from './lib/send.ts';
import { readStartCommand } from './lib/start-command.ts';

const option = (name: string, fallback: number) => {
  const found = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const value = found ? Number(found.split('=')[1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const items = option('items', 1000);
const rounds = option('rounds', 5);
const json = process.argv.includes('--json');

const start = readStartCommand();
const port = await freePort();
const child = spawn(process.execPath, [...start.nodeFlags, 'dist/server.js'], {
  cwd: PROJECT_ROOT,
  env: { ...process.env, ...start.env, PORT: String(port), RATE_LIMIT_MAX: '0', MAX_EVENT_LOOP_DELAY_MS: '0', API_EXTENSIONS: 'pay-runs', PAY_RUN_MAX_ITEMS: String(Math.max(items, 1000)), PAY_RUN_BODY_LIMIT_BYTES: String(64 * 1024 * 1024) },
  stdio: 'ignore',
});
try {
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}; run npm run build first`);
    const answer = await send(port, 'GET', '/api/health').catch(() => undefined);
    if (answer?.status === 200) break;
    if (tries > 300) throw new Error('the service did not answer within a minute');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { catalog, takeHome, annual } = loadShipped();
  const pay = catalog.plans.filter((plan) => plan.context.taxYear === takeHome.context.taxYear && plan.def.factsSchemaName === takeHome.def.factsSchemaName);
  const result = await payRunCpu({ port, pid: child.pid!, work: mixedPayRunWork(pay, annual, items), rounds });
  if (json) process.stdout.write(`${JSON.stringify({ node: process.version, ...result }, null, 2)}\n`);
  else {
    process.stdout.write(`server CPU for ${items.toLocaleString('en')} calculations, median of ${rounds} rounds: singles ${result.singlesCpuMs.toFixed(0)} ms, one pay run ${result.payRunCpuMs.toFixed(0)} ms\n`);
    process.stdout.write(`${result.ratio < 1 ? 'PASS' : 'MISS'}  a pay run costs less server CPU than single requests: ${result.ratio.toFixed(3)}× of the singles\n`);
  }
  if (result.ratio >= 1) process.exitCode = 1;
} finally {
  child.kill('SIGKILL');
}
