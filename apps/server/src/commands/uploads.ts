import { sql } from 'drizzle-orm';
import { inTransaction, queryRows, type Db } from '../db/client.ts';
import { isForeignKeyViolation } from '../db/errors.ts';
import type { Actor } from '../policies/actor.ts';
import type { StoredBytes } from '../uploads/reencode.ts';
import { IMAGE_GATE_LOCK, imagesHeld } from '../uploads/image-gate.ts';
import type { ImageStorage } from '../uploads/storage.ts';

/** How long an image nobody uses is kept after its upload (docs/product.md section 14). */
export const UNUSED_IMAGE_HOURS = 48;

/** Unused images read at a time by the sweep, and stored names looked up at a time. */
const SWEEP_BATCH = 500;

/**
 * A lock on an image's name until the transaction ends, taken by an upload before its row and
 * file and by the sweep before it deletes a file no row names: the sweep never deletes a file
 * an upload of the same image is putting in place (across the processes of a cluster too).
 */
async function lockName(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`upload:${name}`}))`);
}

/** Thrown inside a delete's transaction when a backup holds the images: the sweep stops, nothing deleted. */
class ImagesHeld extends Error {}

/**
 * Inside a delete's transaction, before the file goes: a backup holding the images (uploads/
 * image-gate.ts) rolls the delete back and ends the sweep (the next one goes on).
 */
async function passGate(tx: Db): Promise<void> {
  if (imagesHeld()) throw new ImagesHeld();
  const [row] = await queryRows<{ ok: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock_shared(${IMAGE_GATE_LOCK}) as ok`,
  );
  if (!row?.ok) throw new ImagesHeld();
}

/** An unused image the sweep read: where the next batch starts after. */
interface Candidate {
  name: string;
  createdAt: string;
}

/** What one sweep did: images deleted, and those it could not delete (each told to onError; the next sweep tries again). */
export interface SweepOutcome {
  deleted: number;
  failed: number;
}

/**
 * Stores a re-encoded image (docs/product.md section 14): its row and its file, in one
 * transaction, the file written before the commit (a row never names a file that is not
 * there). The same image uploaded again keeps its first uploader and starts its 48 hours
 * again. The row's lock orders this against the sweep: a sweep deleting the image waits
 * for this commit and finds it new again, or this waits for the sweep and writes anew. The
 * name's lock (lockName) does the same for a file the sweep finds with no row.
 */
export async function recordUpload(db: Db, storage: ImageStorage, actor: Actor, image: StoredBytes): Promise<void> {
  await inTransaction(db, async (tx) => {
    await lockName(tx, image.name);
    await tx.execute(sql`
      insert into uploads (name, owner_id, size, width, height, animated)
      values (${image.name}, ${actor.id}, ${image.bytes.length}, ${image.width}, ${image.height}, ${image.animated})
      on conflict (name) do update set created_at = now(), animated = excluded.animated`);
    await storage.put(image.name, image.bytes);
  });
}

/**
 * Deletes images no post uses 48 hours after their upload, and the files of any the
 * database does not know older than that (a write that failed after its file was made).
 * An image used by a deleted post stays: a deleted post can come back. Each image is
 * deleted in a statement of its own that checks it is still unused and old (a post
 * written meanwhile holds its row: the key of upload_uses refuses the delete), and its
 * file goes once the row is gone. Batches follow one another until none is left; an image
 * that fails (its file cannot be deleted) is told to onError and left for the next sweep.
 * Two processes sweeping at once each delete what the other has not. While a backup holds
 * the images (uploads/image-gate.ts), nothing is deleted: the sweep stops at once.
 */
export async function sweepOrphanImages(
  db: Db,
  storage: ImageStorage,
  onError: (name: string, error: unknown) => void = () => undefined,
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { deleted: 0, failed: 0 };
  const fail = (name: string, error: unknown) => {
    outcome.failed += 1;
    onError(name, error);
  };
  const cutoff = sql`now() - make_interval(hours => ${UNUSED_IMAGE_HOURS})`;
  // Read in upload order (the partial index of unused images), after the last one read: a
  // failed image is not read again.
  for (let after: Candidate | null = null; ;) {
    const candidates: Candidate[] = await queryRows<Candidate>(
      db,
      sql`select name, created_at::text as "createdAt" from uploads
          where use_count = 0 and created_at < ${cutoff}
            ${after === null ? sql`` : sql`and (created_at, name) > (${after.createdAt}::timestamptz, ${after.name})`}
          order by created_at, name limit ${SWEEP_BATCH}`,
    );
    for (const { name } of candidates) {
      try {
        const gone = await inTransaction(db, async (tx) => {
          const rows = await queryRows<{ name: string }>(
            tx,
            sql`delete from uploads where name = ${name} and use_count = 0 and created_at < ${cutoff} returning name`,
          );
          if (rows.length === 0) return false;
          await passGate(tx);
          // Under the row's lock until the commit: an upload of the same image waits, then writes it anew.
          await storage.delete(name);
          return true;
        });
        if (gone) outcome.deleted += 1;
      } catch (error) {
        if (error instanceof ImagesHeld) return outcome;
        // Used by a post written since it was read: kept.
        if (!isForeignKeyViolation(error)) fail(name, error);
      }
    }
    if (candidates.length < SWEEP_BATCH) break;
    after = candidates[candidates.length - 1]!;
  }
  // Files older than the window that no row names (never committed), looked up a batch at a time.
  const horizon = new Date(Date.now() - UNUSED_IMAGE_HOURS * 60 * 60_000);
  let batch: string[] = [];
  const deleteUnknown = async () => {
    const rows = await queryRows<{ name: string }>(
      db,
      sql`select name from uploads where name = any(${sql.param(batch)}::text[])`,
    );
    const known = new Set(rows.map((row) => row.name));
    for (const name of batch) {
      if (known.has(name)) continue;
      try {
        const gone = await inTransaction(db, async (tx) => {
          // An upload of this very image now holds the name until its row commits: looked at again after it.
          await lockName(tx, name);
          const again = await queryRows<{ name: string }>(tx, sql`select name from uploads where name = ${name}`);
          if (again.length > 0) return false;
          await passGate(tx);
          await storage.delete(name);
          return true;
        });
        if (gone) outcome.deleted += 1;
      } catch (error) {
        if (error instanceof ImagesHeld) return false;
        fail(name, error);
      }
    }
    batch = [];
    return true;
  };
  for await (const name of storage.listOlderThan(horizon)) {
    batch.push(name);
    if (batch.length >= SWEEP_BATCH && !(await deleteUnknown())) return outcome;
  }
  if (batch.length > 0) await deleteUnknown();
  return outcome;
}
