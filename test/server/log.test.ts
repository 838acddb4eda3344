import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBatchedLog } from '../../server/log.ts';

test('log lines are written together once the current work is done, in order', async () => {
  const writes: string[] = [];
  const { log } = createBatchedLog((text) => writes.push(text));
  log({ n: 1 });
  log({ n: 2 });
  assert.equal(writes, []);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes, ['{"n":1}\n{"n":2}\n']);
});

test('a full buffer is written at once, and flush writes what is left', () => {
  const writes: string[] = [];
  const { log, flush } = createBatchedLog((text) => writes.push(text), 10);
  log({ a: 'xxxxxxxxxx' });
  assert.is(writes.length, 1);
  log({ b: 1 });
  flush();
  assert.equal(writes, ['{"a":"xxxxxxxxxx"}\n', '{"b":1}\n']);
  flush();
  assert.is(writes.length, 2);
});

test.run();
