// One lane of `npm test` (see scripts/test.js): a process that runs the test files it is sent, one
// at a time, with uvu's own runner, and reports each file's counts and output back. Started with
// tsx's loader, so the test files are imported as TypeScript.
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

// uvu queues suites instead of running them when this is set before it is loaded, as its CLI does.
globalThis.UVU_DEFER = 1;
await import('uvu');

const root = process.cwd();

/** Runs one file's suites; resolves with what the runner printed and its counts. */
async function runFile(file) {
  const started = performance.now();
  const output = [];
  const write = process.stdout.write.bind(process.stdout);
  // The file's dots, failures and anything its tests print are kept together, so the parent can
  // print each file's block whole while other lanes are running theirs.
  process.stdout.write = (chunk, ...rest) => {
    output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((arg) => typeof arg === 'function');
    if (callback) callback();
    return true;
  };
  const counts = { total: 0, passed: 0, skipped: 0, failed: false };
  try {
    globalThis.UVU_QUEUE = [[relative(root, file)]];
    globalThis.UVU_INDEX = 0;
    await import(pathToFileURL(file).href);
    const [group] = globalThis.UVU_QUEUE;
    group.shift();
    for (const runSuite of group) {
      const [errors, ran, skipped, total] = await runSuite();
      counts.total += total;
      counts.passed += ran;
      counts.skipped += skipped;
      if (errors.length) {
        counts.failed = true;
        output.push(`\n${errors}\n`);
      }
    }
  } catch (error) {
    counts.failed = true;
    output.push(`\n${error?.stack ?? String(error)}\n`);
  } finally {
    process.stdout.write = write;
  }
  return { ...counts, output: output.join(''), ms: performance.now() - started };
}

process.on('message', async (message) => {
  if (message.done) process.exit(0);
  const result = await runFile(message.file);
  process.send({ file: message.file, ...result });
});
process.send({ ready: true });
