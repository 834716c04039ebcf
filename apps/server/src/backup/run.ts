// Backing up and restoring the database the configuration names (DATABASE_URL, else the
// embedded one in DATA_DIR): what `npm run backup` and `npm run restore` do.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Config } from '../config.ts';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock.ts';
import { verifyBackupFile } from './archive.ts';
import { openDurablePglite } from '../db/durable-node-fs.ts';
import { backupPglite, backupPostgres, type BackupOptions } from './export.ts';
import type { BackupHeader } from './header.ts';
import { pgliteTarget, postgresTarget, restoreBackup, type RestoreSummary } from './restore.ts';

/** The file a running server writes for `npm run backup` (DATA_DIR/porpoise-server.json, 0600; plugins/backups.ts). */
export const SERVER_FILE = 'porpoise-server.json';

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
  try {
    return await withEmbedded(config.dataDir, (pglite) => backupPglite(pglite, options));
  } catch (error) {
    // A server owns the files: it takes the backup, and this process collects it. Its file must
    // be the owner's (one a killed server left names another process, or none).
    if (error instanceof DataDirLockedError && serverFileOf(config)?.pid === error.pid)
      return backupThroughServer(config, out);
    throw error;
  }
}

interface ServerFile {
  pid: number;
  port: number;
  host: string;
  token: string;
}

/** What the running server wrote for `npm run backup` (plugins/backups.ts), if anything. */
function serverFileOf(config: Config): ServerFile | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(config.dataDir, SERVER_FILE), 'utf8')) as ServerFile;
  } catch {
    return null;
  }
}

/** One request to the running server's operator routes (plugins/backups.ts) on the loopback. */
function askServer(
  config: Config,
  server: ServerFile,
  method: 'GET' | 'POST',
  url: string,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: server.host === '::1' ? '::1' : '127.0.0.1',
      port: server.port,
      method,
      path: `/api${url}`,
      headers: {
        authorization: `Bearer ${server.token}`,
        // The server answers only to its own names (PUBLIC_URL's, else localhost's).
        host: config.publicUrl ? new URL(config.publicUrl).host : `localhost:${server.port}`,
      },
    });
    request.on('response', resolve).on('error', reject).end();
  });
}

async function textOf(response: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of response) text += String(chunk);
  return text;
}

/**
 * Asks the server that owns DATA_DIR for a backup (it snapshots its own files), waits for it
 * (asking once a second, so no request outlives the server's idle timeout), downloads it to
 * `out` and checks it whole.
 */
async function backupThroughServer(config: Config, out: string): Promise<BackupHeader> {
  const server = serverFileOf(config);
  if (server === null) throw new Error(`The running server's ${SERVER_FILE} is gone: is it stopping?`);
  const started = await askServer(config, server, 'POST', '/operator/backups');
  const body = await textOf(started);
  if (started.statusCode !== 202) throw new Error(`The running server refused the backup: ${body}`);
  const { name } = JSON.parse(body) as { name: string };
  for (;;) {
    const response = await askServer(config, server, 'GET', `/operator/backups/${name}`);
    if (response.statusCode === 202) {
      await textOf(response);
      await sleep(1_000);
      continue;
    }
    if (response.statusCode !== 200) throw new Error(`The running server's backup failed: ${await textOf(response)}`);
    const partial = `${out}.partial`;
    try {
      await pipeline(response, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      const header = (await verifyBackupFile(partial)) as BackupHeader;
      fs.renameSync(partial, out);
      return header;
    } catch (error) {
      fs.rmSync(partial, { force: true });
      throw error;
    }
  }
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
  client.on('error', () => undefined); // a lost connection fails the restore's next query instead
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    return await restoreBackup(file, postgresTarget(client, config.databaseUrl, options.pgBinDir), restore);
  } finally {
    await client.end().catch(() => undefined);
  }
}
