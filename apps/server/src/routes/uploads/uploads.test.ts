// docs/product.md section 14: images in posts. Uploads are sniffed, bounded before decoding,
// re-encoded without metadata, stored once by their hash and served with strict headers;
// posts embed them with their sizes; images nobody uses go 48 hours after their upload.
import fs from 'node:fs/promises';
import net from 'node:net';
import zlib from 'node:zlib';
import { LIMITS, MESSAGES, type Question } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanImages } from '../../commands/uploads.ts';
import { queryRows } from '../../db/client.ts';
import { UPLOADS_PER_MEMBER } from '../../plugins/uploads.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import {
  accountIdOf,
  answerQuestion,
  askQuestion,
  type Call,
  callAs,
  registerUser,
  type TestUser,
} from '../../test/factories.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const BOUNDARY = '----porpoise-test-boundary';

/** A multipart body of one file part (field `file` unless said otherwise). */
function multipart(bytes: Buffer, filename = 'image.png', type = 'image/png', field = 'file'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

const png = (width: number, height: number, colour = { r: 200, g: 30, b: 30 }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** A real PNG whose header claims another size (its pixels never match: nothing should decode them). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await png(8, 8));
  // IHDR is the first chunk: length (4), 'IHDR' (4), width (4), height (4), 5 more bytes, then its CRC.
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(zlib.crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

interface Uploaded {
  url: string;
  width: number;
  height: number;
}

describe.each(DATABASE_KINDS)('images in posts on %s', (kind) => {
  let t: TestApp;
  let ann: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind);
    ann = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const upload = (user: TestUser | null, body: Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...(user ? { cookie: user.cookie } : {}),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        ...headers,
      },
      payload: body,
    });
  const uploaded = async (bytes: Buffer, filename?: string, type?: string): Promise<Uploaded> => {
    const response = await upload(ann, multipart(bytes, filename, type));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Uploaded>();
  };
  const stored = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  };

  it('re-encodes a PNG as WebP, named by the hash of what it stored, and serves it with the section’s headers', async () => {
    const image = await uploaded(await png(120, 80));
    expect(image.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    expect(image).toMatchObject({ width: 120, height: 80 });
    const response = await t.app.inject({ method: 'GET', url: image.url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe('sandbox');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.etag).toBeTruthy();
    const meta = await sharp(response.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 120, height: 80 });
    const hash = (await import('node:crypto')).createHash('sha256').update(response.rawPayload).digest('hex');
    expect(image.url).toBe(`/uploads/${hash}.webp`);
    // Ranges and revalidation.
    const range = await t.app.inject({ method: 'GET', url: image.url, headers: { range: 'bytes=0-9' } });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.length).toBe(10);
    const again = await t.app.inject({
      method: 'GET',
      url: image.url,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('gives the same url for the same image, whoever uploads it and whatever its name', async () => {
    const bytes = await png(64, 64, { r: 10, g: 200, b: 90 });
    const first = await uploaded(bytes, 'a.png');
    const bob = await registerUser(t.app);
    const response = await upload(bob, multipart(bytes, 'other-name.png'));
    expect(response.json<Uploaded>()).toEqual(first);
  });

  it('an unknown name, or a name Porpoise does not make, is 404', async () => {
    for (const url of [`/uploads/${'0'.repeat(64)}.webp`, '/uploads/x.webp', '/uploads/../package.json']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('applies the EXIF orientation, then drops every piece of metadata (GPS included)', async () => {
    // 40 x 20, left half red, right half blue, stored sideways: orientation 6 turns it upright as 20 x 40.
    const left = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 255, g: 0, b: 0 } } })
      .png()
      .toBuffer();
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 0, g: 0, b: 255 } } })
      .composite([{ input: left, left: 0, top: 0 }])
      .jpeg()
      .withExif({
        IFD0: { Make: 'PorpoiseCam', ImageDescription: 'secret comment' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before.exif).toBeDefined();
    expect(before.orientation).toBe(6);
    const image = await uploaded(jpeg, 'photo.jpg', 'image/jpeg');
    expect(image).toMatchObject({ width: 20, height: 40 });
    const bytes = await stored(image.url);
    const after = await sharp(bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from('PorpoiseCam'))).toBe(false);
    // Upright: the red half is now on top.
    const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(200);
    expect(data[2]).toBeLessThan(60);
  });

  it('fits the longest side in 2560 px, keeping the proportions', async () => {
    const image = await uploaded(await png(4000, 1000));
    expect(image).toMatchObject({ width: LIMITS.imageSideMax, height: 640 });
    const small = await uploaded(await png(300, 200, { r: 1, g: 2, b: 3 }));
    expect(small).toMatchObject({ width: 300, height: 200 });
  });

  it('keeps an animated GIF animated, as WebP', async () => {
    const frames = await Promise.all(
      [0, 1, 2].map((index) =>
        sharp({ create: { width: 30, height: 30, channels: 3, background: { r: index * 100, g: 50, b: 50 } } })
          .raw()
          .toBuffer(),
      ),
    );
    // Three pages of 30 px, one above the other.
    const source = await sharp(Buffer.concat(frames), { raw: { width: 30, height: 90, channels: 3, pageHeight: 30 } })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(source, { animated: true }).metadata()).pages).toBe(3);
    const image = await uploaded(source, 'moving.gif', 'image/gif');
    expect(image.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);
    expect(image).toEqual({ url: image.url, width: 30, height: 30, animated: true });
    const meta = await sharp(await stored(image.url), { animated: true }).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.pages).toBe(3);
    // A post embedding it says so (its page offers to pause it); a still says nothing.
    const still = await uploaded(await png(31, 30));
    expect(still).not.toHaveProperty('animated');
    const qid = await askQuestion(t.app, ann, { text: `![moving](${image.url}) and ![still](${still.url})` });
    const question = (await call(ann, 'GET', `/api/getQuestionById/${qid}`)).json<Question>();
    expect(question.images).toEqual([image, still]);
  });

  it('takes an animated PNG as a PNG, keeping its first frame', async () => {
    const still = Buffer.from(await png(24, 16, { r: 10, g: 200, b: 10 }));
    // acTL (one frame, looping) and the frame's fcTL, after IHDR: what makes a PNG an APNG.
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const framed = Buffer.alloc(body.length + 8);
      framed.writeUInt32BE(data.length, 0);
      body.copy(framed, 4);
      framed.writeUInt32BE(zlib.crc32(body), body.length + 4);
      return framed;
    };
    const actl = Buffer.alloc(8);
    actl.writeUInt32BE(1, 0);
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(0, 0);
    fctl.writeUInt32BE(24, 4);
    fctl.writeUInt32BE(16, 8);
    fctl.writeUInt16BE(1, 20);
    fctl.writeUInt16BE(10, 22);
    const afterHeader = 8 + 25;
    const apng = Buffer.concat([
      still.subarray(0, afterHeader),
      chunk('acTL', actl),
      chunk('fcTL', fctl),
      still.subarray(afterHeader),
    ]);
    const image = await uploaded(apng, 'moving.png');
    expect(image).toMatchObject({ width: 24, height: 16 });
  });

  it('reads the kind from the content, never the name or the declared type', async () => {
    // A GIF named and declared as PNG is a GIF, and is taken.
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#336699' } })
      .gif()
      .toBuffer();
    expect((await upload(ann, multipart(gif, 'cat.png', 'image/png'))).statusCode).toBe(200);
    const refused = [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'),
      Buffer.from('<!doctype html><html><script>alert(1)</script></html>'),
      Buffer.from('just some text that calls itself a picture'),
      await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .tiff()
        .toBuffer(),
    ];
    for (const bytes of refused) {
      const response = await upload(ann, multipart(bytes, 'innocent.png', 'image/png'));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: MESSAGES.imageType });
    }
  });

  it('a file that is not whole: 400 This image could not be read', async () => {
    const bytes = await png(200, 200);
    const broken = Buffer.concat([bytes.subarray(0, 60), Buffer.alloc(200, 7)]);
    const response = await upload(ann, multipart(broken));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: MESSAGES.imageUnreadable });
  });

  it('refuses 50,000 x 1,000 from its header alone, before decoding it (memory does not grow)', async () => {
    const bomb = await pngClaiming(50_000, 1_000);
    expect(bomb.length).toBeLessThan(1_000);
    const rss = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) {
      const response = await upload(ann, multipart(bomb));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: MESSAGES.imageTooManyPixels });
    }
    // Decoding even one would take 150 MB.
    expect(process.memoryUsage().rss - rss).toBeLessThan(50 * 2 ** 20);
    // Just under the limit by its header, still a lie: read as unreadable, not decoded.
    const liar = await upload(ann, multipart(await pngClaiming(8_000, 5_000)));
    expect(liar.statusCode).toBe(400);
    expect(liar.json()).toMatchObject({ error: MESSAGES.imageUnreadable });
  });

  it('refuses more than 5 MB with 413, whether the body says so or turns out so', async () => {
    const declared = await upload(ann, multipart(Buffer.alloc(10)), { 'content-length': String(20 * 2 ** 20) });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ error: MESSAGES.imageTooLarge });
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(LIMITS.imageBytesMax, 1)]);
    const response = await upload(ann, multipart(big));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: MESSAGES.imageTooLarge });
  });

  it('cuts a body that streams past 5 MB off early: answered 413, and cut off when it goes on regardless', async () => {
    // A raw connection that keeps sending whatever it hears (an attacker, not a browser).
    const { port } = new URL(t.url);
    const total = 64 * 2 ** 20;
    const result = await new Promise<{ heard: string; sent: number }>((resolve) => {
      let sent = 0;
      let heard = '';
      const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
      socket.on('data', (data: Buffer) => (heard += data.toString('latin1')));
      const done = () => resolve({ heard, sent });
      socket.on('error', done);
      socket.on('close', done);
      socket.on('connect', () => {
        socket.write(
          `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${ann.cookie}\r\n` +
            `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
        );
        const part = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
        socket.write(`${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
        const chunk = Buffer.concat([
          Buffer.from(`${(256 * 1024).toString(16)}\r\n`),
          Buffer.alloc(256 * 1024, 3),
          Buffer.from('\r\n'),
        ]);
        const pump = () => {
          while (sent < total && !socket.destroyed) {
            sent += 256 * 1024;
            if (!socket.write(chunk)) {
              socket.once('drain', pump);
              return;
            }
          }
        };
        pump();
      });
    });
    expect(result.heard).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.heard).toContain(MESSAGES.imageTooLarge);
    // Cut off well before the 64 MB were sent.
    expect(result.sent).toBeLessThan(total / 2);
  });

  it('signed out 401; nothing but one file field is an upload', async () => {
    expect((await upload(null, multipart(await png(5, 5)))).statusCode).toBe(401);
    const wrongField = await upload(ann, multipart(await png(5, 5), 'a.png', 'image/png', 'picture'));
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toMatchObject({ error: MESSAGES.imageFileMissing });
    const json = await call(ann, 'POST', '/api/uploads', { file: 'x' });
    expect(json.statusCode).toBe(400);
  });

  describe('in posts', () => {
    it('a question and an answer embed their uploads with sizes; an empty description is refused', async () => {
      const image = await uploaded(await png(90, 60, { r: 9, g: 9, b: 200 }));
      const qid = await askQuestion(t.app, ann, { text: `The dialog:\n\n![the error dialog](${image.url})` });
      const page = (await call(ann, 'GET', `/api/getQuestionById/${qid}`)).json<Question>();
      expect(page.images).toEqual([image]);
      const bob = await registerUser(t.app);
      const aid = await answerQuestion(t.app, bob, qid, `Same here: ![mine too](${image.url})`);
      const again = (await call(ann, 'GET', `/api/getQuestionById/${qid}`)).json<Question>();
      expect(again.answers.find((answer) => answer._id === aid)?.images).toEqual([image]);
      // Without images, no field at all.
      const plain = await askQuestion(t.app, ann);
      expect((await call(ann, 'GET', `/api/getQuestionById/${plain}`)).json<Question>()).not.toHaveProperty('images');

      for (const text of [`![](${image.url})`, `![ ](${image.url})`]) {
        const response = await call(ann, 'POST', '/api/addQuestion', {
          title: 'Blank description',
          text,
          tags: [{ name: 'images', description: '' }],
          askedBy: ann.username,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: MESSAGES.imageDescription });
      }
    });

    it('an image that is not stored is refused, and comments embed none', async () => {
      const missing = await call(ann, 'POST', '/api/addQuestion', {
        title: 'A missing image',
        text: `![gone](/uploads/${'ab'.repeat(32)}.webp)`,
        tags: [{ name: 'images', description: '' }],
        askedBy: ann.username,
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ error: MESSAGES.imageGone });
      const image = await uploaded(await png(33, 33));
      const qid = await askQuestion(t.app, ann);
      const comment = await call(ann, 'POST', '/api/comment/addComment', {
        id: qid,
        type: 'question',
        comment: { text: `![in a comment](${image.url})`, commentBy: ann.username },
      });
      expect(comment.statusCode).toBe(400);
      expect(comment.json()).toMatchObject({ error: MESSAGES.invalidHyperlink });
    });

    it('the sweep deletes images no post uses 48 hours after upload; used ones, and a deleted post’s, stay', async () => {
      // One after another (a member holds at most UPLOADS_PER_MEMBER uploads at once).
      const images: Uploaded[] = [];
      for (const seed of [1, 2, 3, 4])
        images.push(await uploaded(await png(20 + seed, 20, { r: seed * 40, g: 77, b: 11 })));
      const [unused, used, ofDeleted, young] = images;
      const qid = await askQuestion(t.app, ann, { text: `![kept](${used!.url})` });
      const aid = await answerQuestion(t.app, ann, qid, `![kept while it can come back](${ofDeleted!.url})`);
      expect((await call(ann, 'DELETE', `/api/answer/${aid}`)).statusCode).toBe(200);
      const names = [unused, used, ofDeleted].map((image) => image!.url.slice('/uploads/'.length));
      await t.app.db.execute(
        sql`update uploads set created_at = now() - interval '49 hours' where name = any(${sql.param(names)}::text[])`,
      );
      const { deleted, failed } = await sweepOrphanImages(t.app.db, t.app.uploads.storage);
      expect(deleted).toBeGreaterThanOrEqual(1);
      expect(failed).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: unused!.url })).statusCode).toBe(404);
      for (const image of [used, ofDeleted, young]) {
        expect((await t.app.inject({ method: 'GET', url: image!.url })).statusCode).toBe(200);
      }
      const rows = await queryRows<{ name: string }>(t.app.db, sql`select name from uploads where name = ${names[0]}`);
      expect(rows).toEqual([]);

      // An edit that takes the image out leaves it unused: the next sweep deletes it.
      const edit = await call(ann, 'PUT', `/api/question/${qid}`, {
        title: 'Edited without its image',
        text: 'No picture now.',
        tags: [{ name: 'general', description: '' }],
      });
      expect(edit.statusCode, edit.body).toBe(200);
      await sweepOrphanImages(t.app.db, t.app.uploads.storage);
      expect((await t.app.inject({ method: 'GET', url: used!.url })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: ofDeleted!.url })).statusCode).toBe(200);
    });

    it('the sweep deletes files no row names once they are 48 hours old, and leaves younger ones', async () => {
      const storage = t.app.uploads.storage;
      const [old, young] = [`${'c1'.repeat(32)}.webp`, `${'c2'.repeat(32)}.webp`];
      for (const name of [old, young])
        await storage.put(
          name,
          await sharp(await png(9, 9))
            .webp()
            .toBuffer(),
        );
      const aged = new Date(Date.now() - 49 * 60 * 60_000);
      await fs.utimes((await storage.get(old))!.path, aged, aged);
      // A stored image's file, just as old, is the sweep's only through its row (which is young).
      const image = await uploaded(await png(31, 17));
      const imageFile = (await storage.get(image.url.slice('/uploads/'.length)))!.path;
      await fs.utimes(imageFile, aged, aged);

      const { deleted, failed } = await sweepOrphanImages(t.app.db, storage);
      expect(deleted).toBeGreaterThanOrEqual(1);
      expect(failed).toBe(0);
      expect(await storage.get(old)).toBeNull();
      expect(await storage.get(young)).not.toBeNull();
      expect((await t.app.inject({ method: 'GET', url: image.url })).statusCode).toBe(200);
      await storage.delete(young);
    });

    it('a file the sweep cannot delete is told and left for the next sweep; the others go', async () => {
      const images: Uploaded[] = [];
      for (const seed of [1, 2]) images.push(await uploaded(await png(40 + seed, 12, { r: 9, g: seed * 60, b: 99 })));
      const names = images.map((image) => image.url.slice('/uploads/'.length));
      await t.app.db.execute(
        sql`update uploads set created_at = now() - interval '49 hours' where name = any(${sql.param(names)}::text[])`,
      );
      const stubborn = names[0]!;
      const failing = {
        ...t.app.uploads.storage,
        delete: async (name: string) => {
          if (name === stubborn) throw new Error('read-only disk');
          await t.app.uploads.storage.delete(name);
        },
      };
      const told: string[] = [];
      const outcome = await sweepOrphanImages(t.app.db, failing, (name) => told.push(name));
      expect(told).toEqual([stubborn]);
      expect(outcome.failed).toBe(1);
      expect((await t.app.inject({ method: 'GET', url: images[1]!.url })).statusCode).toBe(404);
      // Its row stayed with its file: the next sweep deletes both.
      expect((await t.app.inject({ method: 'GET', url: images[0]!.url })).statusCode).toBe(200);
      await sweepOrphanImages(t.app.db, t.app.uploads.storage);
      expect((await t.app.inject({ method: 'GET', url: images[0]!.url })).statusCode).toBe(404);
    });
  });
});

describe.each(DATABASE_KINDS)('the upload limit on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(async () => t.close());

  it('a busy process answers 503 before the upload counts; 20 uploads an hour per member; the 21st is refused before its body is read', async () => {
    const user = await registerUser(t.app);
    const image = await png(12, 12);
    const send = (who: TestUser) =>
      t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { cookie: who.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipart(image),
      });
    const expectBusy = async (who: TestUser) => {
      const busy = await send(who);
      expect(busy.statusCode).toBe(503);
      expect(busy.json()).toMatchObject({ error: MESSAGES.uploadsBusy });
      expect(busy.headers['retry-after']).toBe('5');
    };
    // The member holds the places one member may (UPLOADS_PER_MEMBER): theirs are refused, another's taken.
    const userId = await accountIdOf(t.app, user.username);
    const held = Array.from({ length: UPLOADS_PER_MEMBER }, () => t.app.uploads.admit(userId));
    for (let i = 0; i < 5; i++) await expectBusy(user);
    const other = await registerUser(t.app);
    expect((await send(other)).statusCode).toBe(200);
    // Every place of the process taken (by others): everyone is refused.
    const rest = Array.from({ length: t.app.config.uploads.inFlight - UPLOADS_PER_MEMBER }, (_, i) =>
      t.app.uploads.admit(-1 - i),
    );
    await expectBusy(other);
    for (const release of [...held, ...rest]) release();
    // None of those refusals counted: the member still has all 20.
    for (let i = 0; i < 20; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { cookie: user.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipart(image),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    // Not even a valid body: the limit answers first.
    const over = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie: user.cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: 'not multipart at all',
    });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeTruthy();
  });
});
