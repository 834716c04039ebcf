import fastifyStatic from '@fastify/static';
import { isUploadName, MESSAGES, UPLOADS_PATH } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sweepOrphanImages } from '../commands/uploads.ts';
import { HttpError } from '../http/http-error.ts';
import { diskStorage, type ImageStorage } from '../uploads/storage.ts';

/** What the upload route needs: the storage, a place among the uploads in flight, and a turn at re-encoding. */
export interface Uploads {
  storage: ImageStorage;
  /**
   * A place among the uploads this process takes at once (read, waiting or re-encoding), to
   * give back when done; 503 'Too many images are being processed: try again in a moment'
   * when there is none, or when the member already holds UPLOADS_PER_MEMBER of them (one
   * member cannot take every place), before the body is read.
   */
  admit(memberId: number): () => void;
  /** Runs the re-encoding when its turn comes: config.uploads.atOnce at a time, the rest wait in order. */
  encode<T>(work: () => Promise<T>): Promise<T>;
}

/** Seconds a client is told to wait when every place is taken. */
const BUSY_RETRY_SECONDS = 5;

/** The places one member may hold at once (the composer sends one image at a time). */
export const UPLOADS_PER_MEMBER = 2;

/**
 * Images in posts (docs/product.md section 14): the storage (a disk driver under UPLOADS_DIR),
 * the bounds on what one process holds, `GET /uploads/{name}` with the section's headers
 * (ranges and ETag by @fastify/static; an unknown name 404), and the hourly orphan sweep.
 */
export const uploadsPlugin = fp(
  async (app: FastifyInstance) => {
    const storage = await diskStorage(app.config.uploadsDir);
    const { atOnce, inFlight, sweepMs, firstSweepMs } = app.config.uploads;
    let admitted = 0;
    /** Places held by each member holding any (at most inFlight entries). */
    const byMember = new Map<number, number>();
    let encoding = 0;
    const waiting: Array<() => void> = [];
    const uploads: Uploads = {
      storage,
      admit(memberId) {
        if (admitted >= inFlight || (byMember.get(memberId) ?? 0) >= UPLOADS_PER_MEMBER) {
          throw new HttpError(503, MESSAGES.uploadsBusy, { 'Retry-After': String(BUSY_RETRY_SECONDS) });
        }
        admitted += 1;
        byMember.set(memberId, (byMember.get(memberId) ?? 0) + 1);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          admitted -= 1;
          const held = (byMember.get(memberId) ?? 1) - 1;
          if (held > 0) byMember.set(memberId, held);
          else byMember.delete(memberId);
        };
      },
      async encode(work) {
        if (encoding >= atOnce) await new Promise<void>((resolve) => waiting.push(resolve));
        else encoding += 1;
        try {
          return await work();
        } finally {
          // The turn goes to the next in line, or back to the pool.
          const next = waiting.shift();
          if (next) next();
          else encoding -= 1;
        }
      },
    };
    app.decorate('uploads', uploads);

    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: UPLOADS_PATH,
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      // Only names Porpoise made: anything else is not looked for on disk.
      allowedPath: (pathName) => isUploadName(pathName.replace(/^\//, '')),
      setHeaders: (res) => {
        void res.header('Content-Type', 'image/webp');
        void res.header('X-Content-Type-Options', 'nosniff');
        void res.header('Content-Security-Policy', 'sandbox');
        void res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });

    // One sweep at a time: a long backlog is not swept twice at once by this process.
    let sweeping = false;
    const sweep = async () => {
      if (sweeping) return;
      sweeping = true;
      try {
        const { deleted } = await sweepOrphanImages(app.db, storage, (name, error) =>
          app.log.warn({ err: error, image: name }, 'an unused image could not be deleted'),
        );
        if (deleted > 0) app.log.info({ deleted }, 'unused images deleted');
      } catch (error) {
        app.log.warn({ err: error }, 'unused images could not be deleted');
      } finally {
        sweeping = false;
      }
    };
    // The first a minute after the start (a process restarted often still sweeps), then hourly.
    const first = setTimeout(() => void sweep(), firstSweepMs).unref();
    const timer = setInterval(() => void sweep(), sweepMs).unref();
    app.addHook('onClose', async () => {
      clearTimeout(first);
      clearInterval(timer);
    });
  },
  { name: 'uploads', dependencies: ['database'] },
);
