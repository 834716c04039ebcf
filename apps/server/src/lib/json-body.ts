import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';
// Below this, gzip saves too little to be worth a header.
const GZIP_FROM_BYTES = 1_024;
// zlib's callback form runs in libuv's threadpool: the event loop keeps serving meanwhile.
const gzipOffThread = promisify(gzip);

/**
 * A JSON answer serialised once and kept (by the read caches): sent as is, or gzipped
 * for clients that accept it (every browser does). It is compressed once, when made, off
 * the main thread (never with zlib's *Sync calls, which held the event loop for hundreds
 * of milliseconds on a large page), so its size is known before a cache keeps it.
 */
export class JsonBody {
  private constructor(
    readonly text: string,
    private readonly gzipped: Buffer | null,
    /** The UTF-8 size of the JSON. */
    readonly textBytes: number,
  ) {}

  /** Serialises `value` and gzips it in the threadpool when it is large enough to gain. */
  static async of(value: unknown): Promise<JsonBody> {
    const text = JSON.stringify(value);
    const textBytes = Buffer.byteLength(text);
    return new JsonBody(text, textBytes >= GZIP_FROM_BYTES ? await gzipOffThread(text) : null, textBytes);
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
