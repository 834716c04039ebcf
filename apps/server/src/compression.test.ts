// Issue 16 item 5: the web app's files went out uncompressed (235,854 bytes of JavaScript
// on the wire for 74 KB of gzip), and so did uncached JSON. The build now stores br and gzip
// copies of its text files; the server sends them by Accept-Encoding, and compresses API
// JSON of 1 KB or more that is not already compressed (JsonBody keeps a gzip of cached pages).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { DATABASE_KINDS } from './test/databases.ts';
import { answerQuestion, askQuestion, insertQuestions, registerUser, type TestUser } from './test/factories.ts';
import { startTestApp, type TestApp } from './test/test-app.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const unbrotli = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

const SCRIPT = '/assets/index-c0ffee12.js';
const SCRIPT_TYPE = 'application/javascript; charset=utf-8';

/** A dist folder laid out as `npm run build` leaves it: each text file with NAME.br and NAME.gz. */
async function builtWebApp(): Promise<{ dir: string; files: Map<string, Buffer> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'porpoise-web-compressed-'));
  await fs.mkdir(path.join(dir, 'assets'));
  const texts = {
    '/index.html': `<!doctype html><title>Porpoise</title><script type="module" src="${SCRIPT}"></script><div id="root"></div>`,
    [SCRIPT]: Array.from({ length: 400 }, (_, i) => `export const line${i} = 'the web app, line ${i}';`).join('\n'),
  };
  const files = new Map<string, Buffer>();
  for (const [name, text] of Object.entries(texts)) {
    const plain = Buffer.from(text);
    // Copies made apart from the server, so a test can tell them from anything it computes.
    const copies: [string, Buffer][] = [
      ['', plain],
      ['.br', await brotli(plain)],
      ['.gz', await gzip(plain, { level: 9 })],
    ];
    for (const [extension, bytes] of copies) {
      files.set(name + extension, bytes);
      await fs.writeFile(path.join(dir, name + extension), bytes);
    }
  }
  return { dir, files };
}

describe.each(DATABASE_KINDS)('compression on %s', (kind) => {
  let t: TestApp;
  let web: Awaited<ReturnType<typeof builtWebApp>>;
  let user: TestUser;

  let syncCalls: MockInstance[] = [];

  beforeAll(async () => {
    // Before the app is built, so the compression plugin would take these if it took any.
    syncCalls = [vi.spyOn(zlib, 'brotliCompressSync'), vi.spyOn(zlib, 'gzipSync')];
    web = await builtWebApp();
    t = await startTestApp(kind, {
      configure: (config) => {
        config.webDistDir = web.dir;
      },
    });
    user = await registerUser(t.app);
  });
  afterAll(async () => {
    for (const spy of syncCalls) spy.mockRestore();
    await t.close();
    await fs.rm(web.dir, { recursive: true, force: true });
  });

  const fetchFile = (url: string, acceptEncoding?: string, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
  const built = (name: string) => web.files.get(name) as Buffer;
  const expectVary = (response: LightMyRequestResponse) =>
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');

  describe('built files', () => {
    it.each([
      ['gzip, deflate, br, zstd', 'br', '.br'],
      ['br', 'br', '.br'],
      ['gzip', 'gzip', '.gz'],
      ['br;q=0, gzip', 'gzip', '.gz'],
      ['gzip;q=0.5, br;q=0.4', 'gzip', '.gz'],
    ])('sends the stored copy to Accept-Encoding %j: %s', async (accepts, encoding, extension) => {
      const response = await fetchFile(SCRIPT, accepts);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expectVary(response);
      expect(response.headers['content-type']).toBe(SCRIPT_TYPE);
      expect(response.rawPayload.equals(built(SCRIPT + extension))).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(built(SCRIPT + extension).length);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it.each([undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate'])(
      'sends the file itself, byte for byte, to Accept-Encoding %j',
      async (accepts) => {
        const response = await fetchFile(SCRIPT, accepts);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBeUndefined();
        expectVary(response);
        expect(response.headers['content-type']).toBe(SCRIPT_TYPE);
        expect(response.rawPayload.equals(built(SCRIPT))).toBe(true);
        expect(Number(response.headers['content-length'])).toBe(built(SCRIPT).length);
      },
    );

    it('answers HEAD with the headers of the copy it would send, and no body', async () => {
      for (const [url, file] of [
        [SCRIPT, SCRIPT],
        ['/home', '/index.html'],
      ] as const) {
        const response = await fetchFile(url, 'br, gzip', 'HEAD');
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBe('br');
        expectVary(response);
        expect(Number(response.headers['content-length']), url).toBe(built(`${file}.br`).length);
        expect(response.rawPayload.length, url).toBe(0);
      }
    });

    it('sends index.html and the page routes it answers compressed, never cached for good', async () => {
      for (const url of ['/index.html', '/', '/home', '/question/12']) {
        const response = await fetchFile(url, 'gzip, deflate, br');
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], url).toBe('br');
        expectVary(response);
        expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
        expect(response.rawPayload.equals(built('/index.html.br')), url).toBe(true);
        expect(response.headers['cache-control'], url).not.toContain('immutable');
        // The security plugin's headers are unchanged.
        expect(String(response.headers['content-security-policy'])).toContain("script-src 'self'");
        const plain = await fetchFile(url);
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expectVary(plain);
        expect(plain.rawPayload.equals(built('/index.html')), url).toBe(true);
      }
      for (const url of ['/index.html', '/home'])
        expect((await fetchFile(url, 'gzip')).headers['cache-control']).toBe('no-cache');
    });

    it('does not serve the stored copies as files of their own', async () => {
      expect((await fetchFile(`${SCRIPT}.br`)).statusCode).toBe(404);
      expect((await fetchFile('/index.html.gz')).statusCode).toBe(404);
    });
  });

  describe('API answers', () => {
    const get = (url: string, acceptEncoding?: string) =>
      t.app.inject({
        url,
        headers: {
          cookie: user.cookie,
          ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        },
      });
    const decode = async (response: LightMyRequestResponse): Promise<unknown> => {
      const encoding = response.headers['content-encoding'];
      const raw = response.rawPayload;
      const text = encoding === 'br' ? await unbrotli(raw) : encoding === 'gzip' ? await gunzip(raw) : raw;
      return JSON.parse(text.toString()) as unknown;
    };

    // Small answers are compressed in place (a zlib stream costs the event loop more than
    // compressing a few KB); large ones in the threadpool, never on the event loop.
    it.each([
      ['a small', 4, 40, true],
      ['a large', 3, 1_000, false],
    ])('compresses %s uncached answer, which decodes to the same JSON', async (_size, count, repeat, inPlace) => {
      const qid = await askQuestion(t.app, user);
      for (let i = 0; i < count; i += 1)
        await answerQuestion(t.app, user, qid, `Answer ${i}: ${'a long answer '.repeat(repeat)}`);
      const url = `/api/question/${qid}/answers`;
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(inPlace ? 1_024 : 32 * 1_024);
      if (inPlace) expect(plain.rawPayload.length).toBeLessThan(32 * 1_024);
      const answers = plain.json<unknown[]>();
      expect(answers).toHaveLength(count);
      for (const spy of syncCalls) spy.mockClear();
      for (const [accepts, encoding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
      ]) {
        const response = await get(url, accepts);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding'], accepts).toBe(encoding);
        expectVary(response);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
        expect(await decode(response)).toEqual(answers);
      }
      // zlib's *Sync calls would hold the event loop while they compress a large answer.
      const inPlaceCalls = syncCalls.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
      if (inPlace) expect(inPlaceCalls).toBe(3);
      else expect(inPlaceCalls).toBe(0);
    });

    it('leaves a small answer uncompressed', async () => {
      const response = await get('/api/account/me', 'gzip, deflate, br');
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.length).toBeLessThan(1_024);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json()).toMatchObject({ username: user.username });
    });

    it("sends a cached page's own gzip once, and compresses it only for a client without gzip", async () => {
      const tag = `zip${Date.now().toString(36)}`;
      await insertQuestions(t.app, user, { count: 40, tag, word: 'compressible', rareWord: 'rare' });
      const url = `/api/getQuestion?tag=${tag}`;
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(1_024);
      const list = plain.json<unknown[]>();
      expect(list).toHaveLength(40);

      // A browser takes br and gzip: the cached gzip goes out as it is, compressed once.
      const cached = await get(url, 'gzip, deflate, br, zstd');
      expect(cached.headers['content-encoding']).toBe('gzip');
      expectVary(cached);
      expect(JSON.parse((await gunzip(cached.rawPayload)).toString())).toEqual(list);
      expect(String(cached.headers.vary).match(/accept-encoding/gi)).toHaveLength(1);

      // No gzip wanted (q=0): brotli of the text, or the text itself.
      const brOnly = await get(url, 'gzip;q=0, br');
      expect(brOnly.headers['content-encoding']).toBe('br');
      expect(JSON.parse((await unbrotli(brOnly.rawPayload)).toString())).toEqual(list);
      const none = await get(url, 'gzip;q=0');
      expect(none.headers['content-encoding']).toBeUndefined();
      expect(none.json()).toEqual(list);
    });
  });
});
