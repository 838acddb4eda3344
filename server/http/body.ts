import type { IncomingMessage } from 'node:http';
import type { AppContext } from './context.ts';
import { ApiProblem } from '../contract/errors.ts';
import { deadlineSweep } from './deadlines.ts';

/** Why a body could not be read. The client gone is not an answerable failure. */
export class BodyReadFailure extends Error {
  constructor(readonly reason: 'too-large' | 'timed-out' | 'client-gone') {
    super(reason);
  }
}

/** Bodies being read, each with its deadline. */
const bodyDeadlines = deadlineSweep<IncomingMessage>();

/**
 * Reads a request body up to `limit` bytes within `timeoutMs` (see deadlines.ts).
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
    // The listeners stay on the request, which ends with it; once the read is settled they do nothing.
    // Removing them costs instructions on every request (bench/README.md, "Figures behind the code").
    let settled = false;
    const finish = (error?: BodyReadFailure) => {
      if (settled) return;
      settled = true;
      bodyDeadlines.unwatch(request);
      if (error) {
        request.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > limit) finish(new BodyReadFailure('too-large'));
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onGone = () => finish(new BodyReadFailure('client-gone'));
    bodyDeadlines.watch(request, timeoutMs, () => finish(new BodyReadFailure('timed-out')));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('aborted', onGone);
    request.on('error', onGone);
  });
}

/**
 * Reads the body of a request answered by a Koa route, as calculate reads its own: a body too large
 * or too slow is thrown as its ApiProblem, and the connection is closed once that is answered (the
 * rest of the body is never read); a client gone is owed nothing, and gets undefined.
 */
export async function readRouteBody(ctx: AppContext, limit: number, timeoutMs: number): Promise<Buffer | undefined> {
  try {
    return await readBody(ctx.req, limit, timeoutMs);
  } catch (error) {
    if (!(error instanceof BodyReadFailure)) throw error;
    if (error.reason === 'client-gone') {
      ctx.req.socket.destroy();
      return undefined;
    }
    ctx.set('connection', 'close');
    ctx.res.once('finish', () => ctx.req.socket.destroySoon());
    throw new ApiProblem({ _tag: error.reason === 'too-large' ? 'CalculatorRequestBodyTooLarge' : 'CalculatorRequestBodyTimedOut' });
  }
}
