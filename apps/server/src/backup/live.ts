// A backup of the database a running server has open (docs/product.md section 15):
// - PostgreSQL: pg_dump in an exported snapshot (export.ts); writes go on.
// - The embedded database: its files are copied while no statement runs (the database's
//   thread, db/pglite-worker.ts 'snapshot': the only stall, the copy's time), then the copy
//   is opened on a thread of its own and exported from there, never the server's open files.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { startModuleWorker } from '../db/pglite-thread.ts';
import { holdImages } from '../uploads/image-gate.ts';
import { backupPostgres, type BackupOptions } from './export.ts';
import type { BackupHeader } from './header.ts';
import { porpoiseVersion } from './run.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Backs up `database` (the server's own) to `out`. */
export async function backupLiveDatabase(database: Database, config: Config, out: string): Promise<BackupHeader> {
  const options: BackupOptions = {
    out,
    uploadsDir: config.uploadsDir,
    migrationsDir: config.migrationsDir,
    porpoiseVersion: porpoiseVersion(config),
  };
  if (database.kind === 'postgres') return backupPostgres(database.url!, { ...options, pgBinDir: config.pgBinDir });
  if (!database.snapshotTo || database.dataDir === undefined)
    throw new Error('An embedded database in memory cannot be backed up');
  const dir = path.join(database.dataDir, `.backup-snapshot-${randomBytes(6).toString('hex')}`);
  // The sweep deletes no image from before the snapshot until the images are packed.
  const release = holdImages();
  try {
    // Every write acknowledged before this moment is in the copy (it waits for them to end).
    const snapshotAt = new Date().toISOString();
    await database.snapshotTo(dir);
    return await exportOnThread(dir, { ...options, snapshotAt });
  } finally {
    release();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

function exportOnThread(dir: string, options: BackupOptions): Promise<BackupHeader> {
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(here, 'backup-worker', { dir, options });
    let reply: { ok: true; header: BackupHeader } | { ok: false; message: string } | undefined;
    let crash: Error | undefined;
    worker.on('message', (message: typeof reply) => (reply = message));
    worker.on('error', (error) => (crash = error));
    // Answered once the thread has ended: its PGlite closed, nothing writes in the copy any more
    // (the caller deletes it next).
    worker.on('exit', (code) => {
      if (reply?.ok) resolve(reply.header);
      else if (reply) reject(new Error(reply.message));
      else reject(crash ?? new Error(`the backup's thread stopped (code ${code})`));
    });
  });
}
