import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';
// Below this, gzip saves too little to be worth a header.
const GZIP_FROM_BYTES = 1_024;

/**
 * A JSON answer serialised once and kept (by the read caches): sent as is, or gzipped
 * for clients that accept it (every browser does), compressed once on first demand.
 */
export class JsonBody {
  private gzipped: Buffer | undefined;

  constructor(readonly text: string) {}

  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    void reply.type(JSON_TYPE).header('vary', 'accept-encoding');
    const accepts = request.headers['accept-encoding'];
    if (this.text.length >= GZIP_FROM_BYTES && typeof accepts === 'string' && accepts.includes('gzip')) {
      this.gzipped ??= gzipSync(this.text);
      return reply.header('content-encoding', 'gzip').send(this.gzipped);
    }
    return reply.send(this.text);
  }
}
