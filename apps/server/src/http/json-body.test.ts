import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from '@porpoise/core/schemas';
import { JsonBody } from './json-body.ts';

describe('JsonBody', () => {
  // Issue 23 item 4: a large page was gzipped with gzipSync on the main thread after every
  // write (586-634 ms per first read of a 24 MB page, other requests waiting meanwhile).
  it('gzips a large page in the threadpool while the event loop keeps turning', async () => {
    const value = Array.from({ length: 200 }, () => randomBytes(15_000).toString('base64'));
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns += 1;
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);
    const body = await JsonBody.of(z.unknown(), value);
    turning = false;
    expect(turns).toBeGreaterThan(0);
    expect(body.textBytes).toBe(Buffer.byteLength(JSON.stringify(value)));
    expect(body.bytes).toBeGreaterThan(body.textBytes);

    const app = Fastify();
    app.get('/', (request, reply) => body.send(request, reply));
    const zipped = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(value);
    const plain = await app.inject({ url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(value);
    await app.close();
  });

  it('gzips a page of a few KB in place, at once', async () => {
    const value = Array.from({ length: 50 }, (_, i) => ({ _id: String(i), title: `Question ${i} about caching` }));
    const body = await JsonBody.of(z.unknown(), value);
    expect(body.textBytes).toBeGreaterThan(1_024);
    expect(body.bytes).toBeLessThan(2 * body.textBytes);
    const app = Fastify();
    app.get('/', (request, reply) => body.send(request, reply));
    const zipped = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(value);
    await app.close();
  });

  // Issue 39: gzipSync's result was a slice of zlib's 16 KB chunk, and each kept page held
  // the whole chunk (80 MB under the mix, of a read cache that counted 10).
  it('holds no more memory for its gzip than it counts, in place and in the threadpool', async () => {
    for (const length of [50, 3_000]) {
      const value = Array.from({ length }, (_, i) => ({ _id: String(i), title: `Question ${i} about caching` }));
      const body = await JsonBody.of(z.unknown(), value);
      const { gzipped } = body as unknown as { gzipped: Buffer };
      expect(gzipped.length).toBeGreaterThan(0);
      expect(gzipped.buffer.byteLength, `${length} rows`).toBe(gzipped.length);
    }
  });

  it('leaves a small answer uncompressed', async () => {
    const body = await JsonBody.of(z.unknown(), { ok: true });
    expect(body.bytes).toBe(body.textBytes);
  });
});
