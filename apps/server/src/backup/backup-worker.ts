// Exports a snapshot copy of the embedded database (backup/live.ts) on a thread of its own:
// the server's thread keeps answering, and the copy's PGlite, with its memory, is gone when
// the thread ends.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { backupPglite, type BackupOptions } from './export.ts';

const { dir, options } = workerData as { dir: string; options: BackupOptions };
// A throwaway copy: no fsync (PGlite's default), and the server's small buffer cache (its 128 MB
// default would add as much to the process while the export runs).
const pglite = await PGlite.create({
  dataDir: dir,
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
});
try {
  parentPort!.postMessage({ ok: true, header: await backupPglite(pglite, options) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
} finally {
  await pglite.close();
}
