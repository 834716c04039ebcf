import { promisify } from 'node:util';
import { gzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { z } from '@porpoise/core/schemas';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { shaped } from './contract-routes.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
// Below this, gzip saves too little to be worth a header.
const GZIP_FROM_BYTES = 1_024;
// zlib's callback form runs in libuv's threadpool: the event loop keeps serving meanwhile.
const gzipOffThread = promisify(gzip);
/**
 * Up to this size a body is gzipped on the event loop, at once: about 0.1-0.3 ms here, less
 * than the threadpool's own cost on the main thread (a zlib stream per body: about 100 us
 * of the event loop's time for a 11 KB list page, against 60 us to gzip it in place).
 */
const GZIP_IN_PLACE_MAX_BYTES = 64 * 1024;

/**
 * The bytes in a buffer of their own, exactly as long: gzipSync answers with a slice of zlib's
 * 16 KB output chunk, and a kept page (about 2 KB gzipped) held the whole chunk: 80 MB of them
 * in the read cache under the mix, which counted 10 (issue 39).
 */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/**
 * A JSON answer serialised once and kept (by the read caches): sent as is, or gzipped
 * for clients that accept it (every browser does). It is compressed once, when made, so
 * its size is known before a cache keeps it; a large page off the main thread (gzipSync
 * held the event loop for hundreds of milliseconds on one), a small one in place.
 */
export class JsonBody {
  private constructor(
    readonly text: string,
    private readonly gzipped: Buffer | null,
    /** The UTF-8 size of the JSON. */
    readonly textBytes: number,
  ) {}

  /**
   * Serialises `value`, once it fits the schema of the answer it is (a field the schema does
   * not list is refused, not kept), and gzips it when it is large enough to gain: in place
   * when small, in the threadpool when large (a page of long answers).
   */
  static async of<T>(schema: z.ZodType<T>, value: T): Promise<JsonBody> {
    const text = JSON.stringify(shaped(schema, value));
    const textBytes = Buffer.byteLength(text);
    if (textBytes < GZIP_FROM_BYTES) return new JsonBody(text, null, textBytes);
    const gzipped = textBytes <= GZIP_IN_PLACE_MAX_BYTES ? ownCopy(gzipSync(text)) : await gzipOffThread(text);
    return new JsonBody(text, gzipped, textBytes);
  }

  /** Memory it holds: the JSON and its gzip. */
  get bytes(): number {
    return this.textBytes + (this.gzipped?.length ?? 0);
  }

  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    void reply.type(JSON_TYPE).header('vary', 'accept-encoding');
    const accepts = request.headers['accept-encoding'];
    // q-values count: 'gzip;q=0' refuses gzip. A client that takes only br gets the text,
    // which the API's compression (app.ts) then compresses for it.
    if (this.gzipped && typeof accepts === 'string' && negotiate(accepts.toLowerCase(), ['gzip']) === 'gzip') {
      return reply.header('content-encoding', 'gzip').send(this.gzipped);
    }
    return reply.send(this.text);
  }
}
