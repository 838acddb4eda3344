import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { answerBatch } from '../../server/http/answer-batch.ts';

const turnEnds = () => new Promise<void>((resolve) => setImmediate(resolve));

test('answers ready in one turn are written together at its end, in the order they were ready', async () => {
  const written: number[] = [];
  const sendSoon = answerBatch(32, (error) => assert.unreachable(String(error)));
  for (let answer = 1; answer <= 5; answer += 1) sendSoon(() => written.push(answer));
  assert.equal(written, [], 'nothing is written before the turn ends');
  await turnEnds();
  assert.equal(written, [1, 2, 3, 4, 5]);
});

test('a full batch is written at once, and what follows it in the same turn at the end of the turn', async () => {
  const written: number[] = [];
  const sendSoon = answerBatch(3, (error) => assert.unreachable(String(error)));
  for (let answer = 1; answer <= 4; answer += 1) sendSoon(() => written.push(answer));
  assert.equal(written, [1, 2, 3]);
  await turnEnds();
  assert.equal(written, [1, 2, 3, 4]);
  sendSoon(() => written.push(5));
  await turnEnds();
  assert.equal(written, [1, 2, 3, 4, 5], 'a later turn gets its own batch');
});

test('a batch of one writes each answer as soon as it is ready', () => {
  const written: number[] = [];
  const sendSoon = answerBatch(1, (error) => assert.unreachable(String(error)));
  sendSoon(() => written.push(1));
  assert.equal(written, [1]);
});

test('an answer whose writing throws is reported, and the rest of its batch is still written', async () => {
  const written: number[] = [];
  const reported: unknown[] = [];
  const sendSoon = answerBatch(32, (error) => reported.push(error));
  const failure = new Error('socket gone');
  sendSoon(() => written.push(1));
  sendSoon(() => {
    throw failure;
  });
  sendSoon(() => written.push(3));
  await turnEnds();
  assert.equal(written, [1, 3]);
  assert.equal(reported, [failure]);
});

test.run();
