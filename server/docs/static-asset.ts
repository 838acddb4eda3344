import { createHash } from 'node:crypto';
import { basename, extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { AppContext } from '../http/context.ts';
import { LARGE_BODIES, type SendingBudget } from '../limits/sending-budget.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A file served as it is, under a name that carries a hash of its content, so browsers may keep it forever. */
export interface StaticAsset {
  readonly fileName: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** A hash of the body, the base of its entity tags. */
  readonly contentHash: string;
  /** The body in an encoding: compressed when first asked for, then kept. */
  encoded(encoding: ContentEncoding): Promise<Buffer>;
}

export type ContentEncoding = 'br' | 'gzip';

/**
 * An asset under the given (already hashed) name. Nothing is compressed at boot: each encoding is
 * made once, off the event loop, when a client first asks for it. Brotli quality 9, not the maximum
 * 11: on the viewer bundle 11 saves little more and takes many times as long (bench/README.md,
 * "Figures behind the code").
 */
export function createStaticAsset(fileName: string, contentType: string, body: Buffer, hash = contentHash(body)): StaticAsset {
  const encodings = new Map<ContentEncoding, Promise<Buffer>>();
  return {
    fileName,
    contentType,
    body,
    contentHash: hash,
    encoded(encoding) {
      let encoded = encodings.get(encoding);
      if (encoded === undefined) {
        encoded =
          encoding === 'br'
            ? brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
            : gzipAsync(body, { level: zlib.Z_BEST_COMPRESSION });
        encodings.set(encoding, encoded);
      }
      return encoded;
    },
  };
}

/** An asset served under its name with a hash of its content added: `name.ext` as `name.<hash>.ext`. */
export function createHashedAsset(name: string, contentType: string, body: Buffer): StaticAsset {
  const hash = contentHash(body);
  const extension = extname(name);
  return createStaticAsset(`${basename(name, extension)}.${hash}${extension}`, contentType, body, hash);
}

/**
 * Answers with an asset: cacheable for a year and immutable (a new content gets a new name),
 * brotli or gzip when the client accepts it, 304 when the client already holds this representation.
 * A body over LARGE_BODIES.aboveBytes is sent only within the sending budget, for `client`: over
 * it, the answer is a 503 to try again in a few seconds.
 */
export async function sendStaticAsset(ctx: AppContext, asset: StaticAsset, budget: SendingBudget, client: string): Promise<void> {
  // The client's order among equally weighted encodings says nothing; brotli is the smaller.
  const encoding = ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : undefined;
  ctx.status = 200;
  ctx.type = asset.contentType;
  ctx.set('cache-control', 'public, max-age=31536000, immutable');
  ctx.set('vary', 'accept-encoding');
  // Each encoding is its own representation, so it gets its own tag.
  ctx.etag = `"${asset.contentHash}${encoding === undefined ? '' : `-${encoding}`}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const body = encoding === undefined ? asset.body : await asset.encoded(encoding);
  if (body.length > LARGE_BODIES.aboveBytes) {
    if (!budget.take(client, body.length)) {
      ctx.status = 503;
      ctx.set('retry-after', String(BUSY_RETRY_AFTER_S));
      ctx.set('cache-control', 'no-store');
      ctx.remove('etag');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = BUSY_MESSAGE;
      return;
    }
  }
  if (encoding !== undefined) ctx.set('content-encoding', encoding);
  ctx.body = body;
}

/** The answer while large bodies are refused: the budget refills within a second. */
const BUSY_RETRY_AFTER_S = 1;
const BUSY_MESSAGE = 'Too many large downloads were asked for (from this address, or in all). Try again in a second.\n';

function contentHash(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 12);
}
