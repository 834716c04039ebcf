import type { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import { LIMITS, MESSAGES, uploadUrl } from '@porpoise/core';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { recordUpload } from '../../commands/uploads.ts';
import { route } from '../../http/contract-routes.ts';
import { limitPosting } from '../../limits/posting-limits.ts';
import { requireActor } from '../../policies/actor.ts';
import { badRequest, HttpError } from '../../http/http-error.ts';
import { reencodeImage } from '../../uploads/reencode.ts';

/** Room for the multipart framing around the file: its boundaries and part headers. */
const FRAMING_BYTES = 16 * 1024;

/** Refused as too large: 413 'Images can be at most 5 MB' (its connection closes: see uploadRoutes). */
const tooLarge = () => new HttpError(413, MESSAGES.imageTooLarge);

/**
 * The file's bytes, or null as soon as they pass 5 MB (multipart's `fileSize` limit): read
 * no further, so the answer goes out while the client is still sending.
 */
function readWhole(file: Readable & { truncated?: boolean }): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.once('limit', () => {
      file.removeAllListeners('data');
      resolve(null);
    });
    // (A body read whole before this began met its limit already: it ends truncated.)
    file.once('end', () => resolve(file.truncated === true ? null : Buffer.concat(chunks)));
    file.once('error', reject);
  });
}

/** The one file of an upload's body, whole: 400 when there is none, 413 past 5 MB. */
async function readUpload(app: FastifyInstance, request: FastifyRequest): Promise<Buffer> {
  let bytes: Buffer | null;
  try {
    const part = await request.file();
    if (part === undefined || part.fieldname !== 'file') throw badRequest(MESSAGES.imageFileMissing);
    bytes = await readWhole(part.file);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw tooLarge();
    throw badRequest(MESSAGES.imageFileMissing);
  }
  if (bytes === null) throw tooLarge();
  if (bytes.length === 0) throw badRequest(MESSAGES.imageFileMissing);
  return bytes;
}

/**
 * `POST /api/uploads` (docs/product.md section 14): one file, field `file`. Signed out 401 and
 * past the upload limit (20 an hour) 429 before any of the body is read; a body that says it
 * is larger than 5 MB is refused at once, one that turns out larger is cut off as it streams
 * (never buffered whole). At most config.uploads.inFlight uploads are taken at once per
 * process (503 past that), and they re-encode one after another (sharp's threads, off the
 * event loop). Answers the stored image's url and size.
 */
export async function uploadRoutes(app: FastifyInstance) {
  await app.register(fastifyMultipart, {
    limits: { fileSize: LIMITS.imageBytesMax, files: 1, fields: 0, parts: 1, headerPairs: 20 },
  });
  // An answer given before the body was read whole (signed out, past the limit, busy, too
  // large, not an image) closes its connection: Node sends the answer, then closes without
  // reading the rest of the body (up to 5 MB, or without end). (Destroying the connection as
  // the answer finishes would drop the answer when it is not yet flushed.)
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) void reply.header('connection', 'close');
    return payload;
  });

  // The upload's place is taken before it counts against the member's 20 an hour: a busy
  // process refuses (503) without counting it. The place is given back when the upload is
  // done, refused, answered or abandoned (giving it back twice is nothing).
  const places = new WeakMap<FastifyRequest, () => void>();
  const limit: preValidationAsyncHookHandler = async (request) => {
    const actor = requireActor(request.actor);
    const release = places.get(request) ?? app.uploads.admit(actor.id);
    try {
      await limitPosting(app, actor, 'upload');
    } catch (error) {
      release();
      throw error;
    }
    places.set(request, release);
  };
  app.addHook('onResponse', async (request) => places.get(request)?.());
  app.addHook('onRequestAbort', async (request) => places.get(request)?.());

  route(app, 'uploadImage', { limit }, async ({ actor }, request) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > LIMITS.imageBytesMax + FRAMING_BYTES) throw tooLarge();
    if (!request.isMultipart()) throw badRequest(MESSAGES.imageFileMissing);
    const release = app.uploads.admit(actor.id);
    try {
      const bytes = await readUpload(app, request);
      const image = await app.uploads.encode(() => reencodeImage(bytes));
      await recordUpload(app.db, app.uploads.storage, actor, image);
      return {
        url: uploadUrl(image.name),
        width: image.width,
        height: image.height,
        ...(image.animated ? { animated: true as const } : {}),
      };
    } finally {
      release();
    }
  });
}
