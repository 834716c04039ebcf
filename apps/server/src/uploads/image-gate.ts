// While a backup runs, the orphan sweep deletes no image (docs/product.md section 15): a row
// in the backup's snapshot must still find its file when the backup packs the images.
//
// - PostgreSQL: a backup holds IMAGE_GATE_LOCK (an advisory lock, exclusive, for its session)
//   from before its snapshot until its file is written; each delete of the sweep takes it
//   shared in its transaction, or stops the sweep if it cannot (any process of a cluster, or
//   `npm run backup` on another machine).
// - The embedded database has one session, whose advisory locks never contend: its backups run
//   in the server's process (backup/live.ts), which counts them here.

/** The advisory lock backups hold and the sweep's deletes share (db/client.ts holds 7_206_431). */
export const IMAGE_GATE_LOCK = 7_206_433;

let held = 0;

/** Holds the images of this process's database until the returned function is called. */
export function holdImages(): () => void {
  held += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held -= 1;
  };
}

/** Whether a backup in this process holds the images. */
export const imagesHeld = (): boolean => held > 0;
