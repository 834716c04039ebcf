import { sql } from 'drizzle-orm';
import { inTransaction, queryRows, type Db } from '../db/client.ts';
import { isForeignKeyViolation } from '../db/errors.ts';
import type { Actor } from '../policies/actor.ts';
import type { StoredBytes } from '../uploads/reencode.ts';
import type { ImageStorage } from '../uploads/storage.ts';

/** How long an image nobody uses is kept after its upload (docs/product.md section 14). */
export const UNUSED_IMAGE_HOURS = 48;

/** The most unused images one sweep deletes (the next takes the rest). */
const SWEEP_BATCH = 500;

/**
 * Stores a re-encoded image (docs/product.md section 14): its row and its file, in one
 * transaction, the file written before the commit (a row never names a file that is not
 * there). The same image uploaded again keeps its first uploader and starts its 48 hours
 * again. The row's lock orders this against the sweep: a sweep deleting the image waits
 * for this commit and finds it new again, or this waits for the sweep and writes anew.
 */
export async function recordUpload(db: Db, storage: ImageStorage, actor: Actor, image: StoredBytes): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`
      insert into uploads (name, owner_id, size, width, height)
      values (${image.name}, ${actor.id}, ${image.bytes.length}, ${image.width}, ${image.height})
      on conflict (name) do update set created_at = now()`);
    await storage.put(image.name, image.bytes);
  });
}

/**
 * Deletes images no post uses 48 hours after their upload, and the files of any the
 * database does not know older than that (a write that failed after its file was made).
 * An image used by a deleted post stays: a deleted post can come back. Each image is
 * deleted in a statement of its own that checks it is still unused and old (a post
 * written meanwhile holds its row: the key of upload_uses refuses the delete), and its
 * file goes once the row is gone. Answers how many it deleted.
 */
export async function sweepOrphanImages(db: Db, storage: ImageStorage): Promise<number> {
  const cutoff = sql`now() - make_interval(hours => ${UNUSED_IMAGE_HOURS})`;
  const candidates = await queryRows<{ name: string }>(
    db,
    sql`select name from uploads where use_count = 0 and created_at < ${cutoff} order by created_at limit ${SWEEP_BATCH}`,
  );
  let deleted = 0;
  for (const { name } of candidates) {
    try {
      const gone = await inTransaction(db, async (tx) => {
        const rows = await queryRows<{ name: string }>(
          tx,
          sql`delete from uploads where name = ${name} and use_count = 0 and created_at < ${cutoff} returning name`,
        );
        // Under the row's lock until the commit: an upload of the same image waits, then writes it anew.
        if (rows.length > 0) await storage.delete(name);
        return rows.length > 0;
      });
      if (gone) deleted += 1;
    } catch (error) {
      // Used by a post written since it was read: kept.
      if (!isForeignKeyViolation(error)) throw error;
    }
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
      await storage.delete(name);
      deleted += 1;
    }
    batch = [];
  };
  for await (const name of storage.listOlderThan(horizon)) {
    batch.push(name);
    if (batch.length >= SWEEP_BATCH) await deleteUnknown();
  }
  if (batch.length > 0) await deleteUnknown();
  return deleted;
}
