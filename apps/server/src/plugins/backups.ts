import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_NAME, type BackupList, type BackupSummary } from '@porpoise/core/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { forwardedByProxy } from '../auth/client-address.ts';
import { readBackupHeader } from '../backup/archive.ts';
import { backupFileName } from '../backup/export.ts';
import type { BackupHeader } from '../backup/header.ts';
import { backupLiveDatabase } from '../backup/live.ts';
import { SERVER_FILE } from '../backup/run.ts';
import { bearerMatches, isLoopback } from './metrics.ts';

/** Where a backup goes: BACKUP_DIR (kept, listed), or the outbox an operator's `npm run backup` collects from. */
export type BackupPlace = 'kept' | 'outbox';

export type BackupProgress =
  { state: 'running' } | { state: 'done'; file: string } | { state: 'failed'; message: string };

export interface Backups {
  /** Starts a backup now; its name, or null while another runs (one at a time per process). */
  start(place: BackupPlace): string | null;
  /** BACKUP_DIR's backups, newest first, and what runs or last failed (GET /api/admin/backups). */
  list(): Promise<BackupList>;
  /** The file of a whole backup in BACKUP_DIR, or null. */
  kept(name: string): string | null;
  /** How an outbox backup this process started is doing. */
  progress(name: string): BackupProgress | null;
  /** Forgets an outbox backup (collected: its file is deleted once sent). */
  forget(name: string): void;
  /** Takes the scheduled backup if it is due, as the timer does (tests call it). */
  checkSchedule(): Promise<void>;
  /** Resolves once no backup runs. */
  whenIdle(): Promise<void>;
  /** Whether the request is `npm run backup` on this machine: the loopback, no proxy, the server's token. */
  fromOperator(request: FastifyRequest): boolean;
}

/** Another process's scheduled backup holds this (PostgreSQL): one process of a cluster backs up. */
const BACKUP_RUN_LOCK = 7_206_432;
/** An operator's backup left in the outbox (never collected) is deleted after this long. */
const OUTBOX_MS = 60 * 60_000;
/** What a backup interrupted by a crash left (a .partial file, the SQL spool) is deleted after this long. */
const LEFT_BEHIND_MS = 24 * 60 * 60_000;

/** Whole backups in `dir` with their modification times, newest first. */
function backupsIn(dir: string): { name: string; file: string; mtimeMs: number; size: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => BACKUP_NAME.test(name))
    .flatMap((name) => {
      const file = path.join(dir, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      return stat?.isFile() ? [{ name, file, mtimeMs: stat.mtimeMs, size: stat.size }] : [];
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
}

/** Deletes what a crashed backup left in `dir` (older than `ms`): half-written files and SQL spools. */
function deleteLeftBehind(dir: string, ms: number, alsoWhole = false): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const leftover = name.endsWith('.partial') || (name.startsWith('.porpoise-') && name.endsWith('.sql'));
    if (!leftover && !(alsoWhole && BACKUP_NAME.test(name))) continue;
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < Date.now() - ms) fs.rmSync(file, { force: true });
  }
}

/** A name for a backup now in `dir`: section 15's, with -2, -3... if a second is taken in one second. */
function freshName(dir: string): string {
  const base = backupFileName(new Date());
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : base.replace('.porpoise-backup', `-${n}.porpoise-backup`);
    if (!fs.existsSync(path.join(dir, name)) && !fs.existsSync(path.join(dir, `${name}.partial`))) return name;
  }
}

function summaryOf(name: string, size: number, header: BackupHeader): BackupSummary {
  return {
    name,
    createdAt: header.snapshotAt,
    size,
    database: header.source.database,
    migration: header.migration.tag,
    questions: header.tables.find((table) => table.name === 'questions')?.rows ?? 0,
    images: header.images.count,
  };
}

/**
 * Backups by the server (docs/product.md section 15). With BACKUP_DIR set, a backup is taken
 * when the newest there is a day old (looked at every 10 minutes), and the 7 newest are kept;
 * admins list them, download one and start one at /admin. `npm run backup` on the server's
 * machine asks this process for one when it owns the embedded database (it alone may open its
 * files): it proves it is on the machine with the token in DATA_DIR/porpoise-server.json.
 */
export const backupsPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, database } = app;
    const backupDir = config.backupDir;
    // The embedded database's own directory (where its lock is): the token file, the outbox and
    // snapshot copies live there.
    const home = database.dataDir ?? config.dataDir;
    const outbox = path.join(home, 'backup-outbox');
    let running: { name: string; startedAt: string; done: Promise<void> } | null = null;
    let lastFailure: { at: string; message: string } | null = null;
    /** Outbox backups this process made, by name (a few: each is collected, then forgotten). */
    const outcomes = new Map<string, BackupProgress>();
    /** Headers read for the list, by name, with the file's time (a file is never rewritten). */
    const headers = new Map<string, { mtimeMs: number; summary: BackupSummary }>();

    const prune = () => {
      if (!backupDir) return;
      for (const old of backupsIn(backupDir).slice(config.backups.keep)) fs.rmSync(old.file, { force: true });
      deleteLeftBehind(backupDir, LEFT_BEHIND_MS);
    };

    type Run = { name: string; place: BackupPlace; startedAt: string; done: Promise<void> };
    const begin = (place: BackupPlace): Run | null => {
      if (running) return null;
      const dir = place === 'kept' ? backupDir : outbox;
      if (!dir) throw new Error('BACKUP_DIR is not set');
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const name = freshName(dir);
      const out = path.join(dir, name);
      if (place === 'outbox') {
        deleteLeftBehind(outbox, OUTBOX_MS, true);
        if (outcomes.size >= 20) outcomes.delete(outcomes.keys().next().value!);
        outcomes.set(name, { state: 'running' });
      }
      const started = performance.now();
      const done = backupLiveDatabase(database, config, out).then(
        (header) => {
          app.log.info(
            { backup: name, seconds: Math.round(performance.now() - started) / 1000, images: header.images.count },
            'backup written',
          );
          if (header.images.missing.length > 0)
            app.log.warn({ backup: name, missing: header.images.missing.length }, 'images missing from a backup');
          if (place === 'outbox') outcomes.set(name, { state: 'done', file: out });
          else prune();
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          app.log.error({ err: error, backup: name }, 'backup failed');
          lastFailure = { at: new Date().toISOString(), message };
          if (place === 'outbox') outcomes.set(name, { state: 'failed', message });
        },
      );
      const run: Run = { name, place, startedAt: new Date().toISOString(), done };
      running = run;
      void done.finally(() => (running = null));
      return run;
    };

    const backups: Backups = {
      start: (place) => begin(place)?.name ?? null,
      async list() {
        const found = backupDir ? backupsIn(backupDir) : [];
        const summaries: BackupSummary[] = [];
        for (const backup of found) {
          let known = headers.get(backup.name);
          if (known?.mtimeMs !== backup.mtimeMs) {
            const header = (await readBackupHeader(backup.file).catch(() => null)) as BackupHeader | null;
            if (header === null) continue;
            known = { mtimeMs: backup.mtimeMs, summary: summaryOf(backup.name, backup.size, header) };
            headers.set(backup.name, known);
          }
          summaries.push(known.summary);
        }
        for (const name of headers.keys()) if (!found.some((backup) => backup.name === name)) headers.delete(name);
        return {
          backups: summaries,
          running: running ? { name: running.name, startedAt: running.startedAt } : null,
          lastFailure,
          scheduled: backupDir !== undefined,
        };
      },
      kept(name) {
        if (!backupDir || !BACKUP_NAME.test(name)) return null;
        const file = path.join(backupDir, name);
        return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null;
      },
      progress: (name) => outcomes.get(name) ?? null,
      forget: (name) => void outcomes.delete(name),
      checkSchedule: () => check(),
      whenIdle: async () => {
        await running?.done;
      },
      fromOperator: (request) =>
        isLoopback(request.raw.socket.remoteAddress ?? '') &&
        !forwardedByProxy(request.headers) &&
        bearerMatches(request, operatorToken),
    };
    app.decorate('backups', backups);

    // The token `npm run backup` reads, for the embedded database on disk (on PostgreSQL the
    // CLI backs up by itself). A new one each start, in a file only this user reads.
    const operatorToken = randomBytes(32).toString('hex');
    const serverFile = path.join(home, SERVER_FILE);
    if (database.dataDir !== undefined) {
      app.addHook('onListen', async () => {
        const address = app.server.address();
        if (address === null || typeof address === 'string') return;
        const temporary = `${serverFile}.${process.pid}.tmp`;
        const content = { pid: process.pid, port: address.port, host: config.host, token: operatorToken };
        fs.writeFileSync(temporary, JSON.stringify(content), { mode: 0o600 });
        fs.renameSync(temporary, serverFile);
      });
      app.addHook('onClose', () => {
        try {
          const content = JSON.parse(fs.readFileSync(serverFile, 'utf8')) as { token?: string };
          if (content.token === operatorToken) fs.rmSync(serverFile, { force: true });
        } catch {
          // not there, or another's: left as it is
        }
      });
    }

    /** Takes the scheduled backup if it is due (on PostgreSQL, in one process of a cluster). */
    const due = () => {
      const newest = backupDir ? backupsIn(backupDir)[0] : undefined;
      return newest === undefined || newest.mtimeMs <= Date.now() - config.backups.everyMs;
    };
    const check = async () => {
      if (closed || running || !due()) return;
      if (database.kind === 'pglite') {
        await begin('kept')?.done;
        return;
      }
      const client = new pg.Client({ connectionString: database.url, application_name: 'porpoise-backups' });
      // Losing it only ends the lock (PostgreSQL drops it with the session): never the process.
      client.on('error', (error) => app.log.warn({ err: error }, 'the backup schedule lost its connection'));
      await client.connect();
      try {
        if (closed) return;
        const [held] = (await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [BACKUP_RUN_LOCK]))
          .rows;
        if (!held?.ok || !due()) return;
        await begin('kept')?.done;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    // A snapshot copy a crash or a kill left behind (live.ts): a whole database's files.
    if (database.dataDir !== undefined) {
      for (const entry of fs.readdirSync(database.dataDir, { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name.startsWith('.backup-snapshot-'))
          fs.rmSync(path.join(database.dataDir, entry.name), { recursive: true, force: true });
      }
    }
    if (backupDir) {
      deleteLeftBehind(backupDir, LEFT_BEHIND_MS);
      const tick = () => {
        check()
          .catch((error: unknown) => app.log.warn({ err: error }, 'the backup schedule could not be checked'))
          .finally(() => {
            if (!closed) timer = setTimeout(tick, config.backups.checkMs).unref();
          });
      };
      timer = setTimeout(tick, config.backups.firstCheckMs).unref();
    }
    app.addHook('onClose', async () => {
      closed = true;
      clearTimeout(timer);
      await running?.done;
    });
  },
  { name: 'backups', dependencies: ['database'] },
);
