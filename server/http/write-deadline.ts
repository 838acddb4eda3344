import type { ServerResponse } from 'node:http';
import { deadlineSweep } from './deadlines.ts';

const writeDeadlines = deadlineSweep<ServerResponse>();

/**
 * Bounds the time from the moment a response is ready to the moment the client has taken all of
 * it: a client that asks for a large answer and never reads it would otherwise hold its connection,
 * and the memory of the answer, for as long as it likes. Called by the request frame as the answer
 * is handed over for writing.
 */
export function watchWrite(response: ServerResponse, timeoutMs: number): void {
  writeDeadlines.watch(response, timeoutMs, () => response.destroy());
  response.once('close', () => writeDeadlines.unwatch(response));
}
