import type { IncomingMessage } from 'node:http';

/** Why a body could not be read. The client gone is not an answerable failure. */
export class BodyReadFailure extends Error {
  constructor(readonly reason: 'too-large' | 'timed-out' | 'client-gone') {
    super(reason);
  }
}

/** How often the deadlines of bodies still being read are checked: a late body is cut off at most this late. */
export const DEADLINE_CHECK_MS = 100;

/** Bodies being read, each with its deadline; one interval checks them all, instead of a timer per request. */
const reading = new Map<IncomingMessage, { deadline: number; expire: () => void }>();
let sweeper: NodeJS.Timeout | undefined;

function watchDeadline(request: IncomingMessage, timeoutMs: number, expire: () => void): void {
  reading.set(request, { deadline: performance.now() + timeoutMs, expire });
  sweeper ??= setInterval(() => {
    const now = performance.now();
    for (const { deadline, expire } of reading.values()) if (deadline <= now) expire();
    if (reading.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }, DEADLINE_CHECK_MS).unref();
}

/**
 * Reads a request body up to `limit` bytes within `timeoutMs` (checked every DEADLINE_CHECK_MS).
 * Rejects as soon as the limit is crossed (or at once when content-length says it will be), without
 * reading further, so an oversized or endless body costs no more than the limit.
 */
export function readBody(request: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyReadFailure('too-large'));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error?: BodyReadFailure) => {
      reading.delete(request);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('aborted', onGone);
      request.off('error', onGone);
      if (error) {
        request.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) finish(new BodyReadFailure('too-large'));
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onGone = () => finish(new BodyReadFailure('client-gone'));
    watchDeadline(request, timeoutMs, () => finish(new BodyReadFailure('timed-out')));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('aborted', onGone);
    request.on('error', onGone);
  });
}
