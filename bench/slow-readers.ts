/**
 * Slow readers of the viewer's bundle: `readers` connections from eight loopback addresses each ask
 * for the 1.7 MB bundle (uncompressed unless an encoding is given) and read it in 200 ms pauses,
 * while 127.0.0.2 asks for health every 100 ms, from 1.5 s after the crowd arrives, for 8 s.
 * Prints the health checks' median and slowest times, the megabytes the crowd received and how many
 * of its connections ended. Against a running service:
 *
 *   npx tsx bench/slow-readers.ts http://127.0.0.1:4000 [readers=1000] [encoding, such as br]
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

const base = new URL(process.argv[2] ?? 'http://127.0.0.1:4000');
const port = Number(base.port);
const readers = Number(process.argv[3] ?? 1000);
const encoding = process.argv[4] ?? '';
const page = await (await fetch(new URL('/api/docs', base))).text();
const path = /src="(\/api\/docs\/assets\/swagger-ui-bundle[^"]*\.js)"/.exec(page)?.[1];
if (path === undefined) throw new Error('the viewer page names no bundle');

let received = 0;
let ended = 0;
const sockets: Socket[] = [];
for (let index = 0; index < readers; index++) {
  const socket = connect({ port, host: base.hostname, localAddress: `127.0.1.${1 + (index % 8)}` });
  sockets.push(socket);
  socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nhost: x\r\n${encoding ? `accept-encoding: ${encoding}\r\n` : ''}connection: close\r\n\r\n`));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    socket.pause();
    setTimeout(() => socket.resume(), 200);
  });
  socket.on('error', () => undefined);
  socket.on('close', () => ended++);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const health = () =>
  new Promise<number>((resolve) => {
    const started = performance.now();
    const outgoing = request({ host: base.hostname, port, path: '/api/health', localAddress: '127.0.0.2', agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(performance.now() - started));
    });
    outgoing.on('error', () => resolve(Number.NaN));
    outgoing.end();
  });

await sleep(1500);
const times: number[] = [];
for (const until = performance.now() + 8000; performance.now() < until; await sleep(100)) times.push(await health());
times.sort((a, b) => a - b);
console.log(
  JSON.stringify({ readers, encoding: encoding || 'none', healthChecks: times.length, healthP50Ms: Math.round(times[times.length >> 1]!), healthMaxMs: Math.round(times.at(-1)!), receivedMB: Math.round(received / 1e6), ended }),
);
for (const socket of sockets) socket.destroy();
