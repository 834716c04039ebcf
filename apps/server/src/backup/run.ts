// Backing up and restoring the database the configuration names (DATABASE_URL, else the
// embedded one in DATA_DIR): what `npm run backup` and `npm run restore` do.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { lockDataDir } from '../db/data-dir-lock.ts';
import { openDurablePglite } from '../db/durable-node-fs.ts';
import { backupPglite, backupPostgres, type BackupOptions } from './export.ts';
import type { BackupHeader } from './header.ts';
import { pgliteTarget, postgresTarget, restoreBackup, type RestoreSummary } from './restore.ts';

/** The migration lock of db/client.ts: a server starting during a restore waits for it. */
const MIGRATION_LOCK_ID = 7_206_431;

/** Porpoise's version, from the root package.json (the backup's header records it). */
export function porpoiseVersion(config: Config): string {
  try {
    const file = path.resolve(config.migrationsDir, '..', '..', '..', 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The embedded database opened in this process, the data directory locked for it: a server
 * running on it refuses (DataDirLockedError says to stop it).
 */
async function withEmbedded<T>(
  dataDir: string,
  work: (pglite: Awaited<ReturnType<typeof openDurablePglite>>) => Promise<T>,
): Promise<T> {
  const release = lockDataDir(dataDir);
  try {
    const pglite = await openDurablePglite(path.join(dataDir, 'pgdata'));
    try {
      return await work(pglite);
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

/** Writes a backup of the configured database to `out`. */
export async function backupConfigured(config: Config, out: string, pgBinDir?: string): Promise<BackupHeader> {
  const options: BackupOptions = {
    out,
    uploadsDir: config.uploadsDir,
    migrationsDir: config.migrationsDir,
    porpoiseVersion: porpoiseVersion(config),
  };
  if (config.databaseUrl) return backupPostgres(config.databaseUrl, { ...options, pgBinDir });
  if (!fs.existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION')))
    throw new Error(`There is no embedded database in ${config.dataDir} to back up (DATA_DIR).`);
  return withEmbedded(config.dataDir, (pglite) => backupPglite(pglite, options));
}

/** Restores `file` into the configured database. */
export async function restoreConfigured(
  config: Config,
  file: string,
  options: { force: boolean; pgBinDir?: string },
): Promise<RestoreSummary> {
  const restore = { force: options.force, migrationsDir: config.migrationsDir, uploadsDir: config.uploadsDir };
  if (!config.databaseUrl)
    return withEmbedded(config.dataDir, (pglite) => restoreBackup(file, pgliteTarget(pglite), restore));
  const client = new pg.Client({ connectionString: config.databaseUrl, application_name: 'porpoise-restore' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await restoreBackup(file, postgresTarget(client, config.databaseUrl, options.pgBinDir), restore);
  } finally {
    await client.end().catch(() => undefined);
  }
}
