// Restoring a backup (docs/product.md section 15) into an empty database of either kind:
//
// 1. the whole file is read and checked (archive.ts) before the database is touched;
// 2. the target is built at the backup's migration by our own migrations;
// 3. the rows are loaded in one transaction (foreign keys and plain indexes dropped first and
//    made again after, which also checks every reference), the images written, and only then
//    committed: a failed restore leaves no rows behind;
// 4. the migrations since the backup run, as a server's start would run them.
//
// Sessions are never in a backup, so every account signs in again, with its password.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { SERVER_APPLICATION_NAMES } from '../db/client.ts';
import { diskStorage } from '../uploads/storage.ts';
import { BackupFileError, readBackupFile, readBackupHeader, verifyBackupFile } from './archive.ts';
import {
  holdsData,
  keptTables,
  loadBrackets,
  ownedSequences,
  publicTables,
  resetStatements,
  type RunSql,
} from './catalog.ts';
import { copyLine, quoteIdentifier, readDataSql, type DataSqlEvent } from './data-sql.ts';
import { backupHeaderSchema, type BackupHeader } from './header.ts';
import { markOf, migrateUpTo, migrationMarks, porpoiseObjects } from './migrations.ts';
import { postgresToolEnv, runTool, toolPath } from './pg-tools.ts';

/** A restore that will not go ahead, for a reason the operator can act on (the CLI prints it, exit 1). */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/** Section 15's text for a target that already holds a community. */
export const NOT_EMPTY = 'The target database is not empty';
export const SERVER_CONNECTED = 'A Porpoise server is connected to the target database: stop it before restoring';

type AnyDb = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** One transaction that loads rows: statements, and rows in COPY's text format for a table. */
interface Loader {
  statement(text: string): Promise<void>;
  copy(table: string, columns: readonly string[], rows: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** A database to restore into: its catalog, its migrations, and a loader for its rows. */
export interface RestoreTarget {
  kind: 'pglite' | 'postgres';
  run: RunSql;
  db: AnyDb;
  load(): Promise<Loader>;
  /** Whether a Porpoise server is using the database (the embedded one's lock says so before). */
  inUse?: () => Promise<boolean>;
  /** Fails if the target cannot load rows (psql missing), before anything is changed. */
  ready?: () => Promise<void>;
}

/** The embedded database, open in this thread (the restore CLI's own; the server is stopped). */
export function pgliteTarget(pglite: PGlite): RestoreTarget {
  return {
    kind: 'pglite',
    run: async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows,
    db: drizzlePglite({ client: pglite }),
    async load() {
      await pglite.exec('begin');
      return {
        statement: async (text) => {
          await pglite.exec(text);
        },
        copy: async (table, columns, rows) => {
          const into = copyLine(table, columns).replace(' FROM stdin;\n', '');
          await pglite.query(`${into} from '/dev/blob'`, [], { blob: new Blob([rows]) });
        },
        commit: async () => {
          await pglite.exec('commit');
        },
        abort: async () => {
          await pglite.exec('rollback');
        },
      };
    },
  };
}

/**
 * PostgreSQL, through a client of ours for the catalog and migrations and psql for the rows
 * (PostgreSQL's own loader of pg_dump's text). `client` should hold the migration lock, so a
 * server starting meanwhile waits for the restore.
 */
export function postgresTarget(client: pg.Client, url: string, pgBinDir?: string): RestoreTarget {
  return {
    kind: 'postgres',
    run: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
    db: drizzlePg({ client }),
    load: () => psqlLoader(url, pgBinDir),
    ready: async () => {
      await runTool('psql', ['--version'], { binDir: pgBinDir });
    },
    inUse: async () => {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and application_name = any($1::text[])`,
        [SERVER_APPLICATION_NAMES],
      );
      return (rows[0]?.n ?? 0) > 0;
    },
  };
}

async function psqlLoader(url: string, pgBinDir: string | undefined): Promise<Loader> {
  const child: ChildProcess = spawn(
    toolPath('psql', pgBinDir),
    ['--no-psqlrc', '--quiet', '--set', 'ON_ERROR_STOP=1', '--output', '/dev/null'],
    { env: { ...postgresToolEnv(url), PGCLIENTENCODING: 'UTF8' }, stdio: ['pipe', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (errors += text));
  // A write after psql stopped (on an error) fails with EPIPE: its exit says why.
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('psql was not found: restoring into PostgreSQL needs its client programs, or PG_BIN_DIR')
          : error,
      ),
    );
    child.on('close', resolve);
  });
  let ended = false;
  const failed = async () => {
    const code = await exited;
    return new Error(`psql stopped the restore (exit ${code}): ${errors.trim()}`);
  };
  const write = async (text: string) => {
    if (ended || child.exitCode !== null) throw await failed();
    if (!child.stdin!.write(text)) {
      const stopped = await Promise.race([once(child.stdin!, 'drain').then(() => false), exited.then(() => true)]);
      if (stopped) throw await failed();
    }
  };
  await write(`begin;\nset local maintenance_work_mem = '256MB';\n`);
  return {
    statement: (text) => write(`${text};\n`),
    copy: (table, columns, rows) => write(`${copyLine(table, columns)}${rows}\\.\n`),
    async commit() {
      await write('commit;\n');
      ended = true;
      child.stdin!.end();
      if ((await exited) !== 0) throw await failed();
    },
    async abort() {
      ended = true;
      child.kill();
      await exited.catch(() => undefined);
    },
  };
}

/** The header, checked against this Porpoise's migrations. */
function checkedHeader(file: string, raw: unknown, migrationsDir: string): BackupHeader {
  const parsed = backupHeaderSchema.safeParse(raw);
  if (!parsed.success) throw new BackupFileError('not-a-backup', file);
  const header = parsed.data;
  const marks = migrationMarks(migrationsDir);
  const known = marks[header.migration.index];
  const latest = marks.at(-1)!;
  if (known === undefined || header.migration.when > latest.when)
    throw new RestoreRefusedError(
      `${file} comes from a newer Porpoise (migration ${header.migration.tag}); this one is at ${latest.tag}: upgrade Porpoise to restore it`,
    );
  if (markOf(marks, header.migration) === undefined || known.tag !== header.migration.tag)
    throw new RestoreRefusedError(
      `${file} was taken at migration ${header.migration.tag}, which this Porpoise's ${known.tag} does not match: restore it with the Porpoise that took it`,
    );
  return header;
}

/**
 * Reads the file through, handing each statement of its SQL to `onEvent` and each image to
 * `onImage`, and checks each table's rows against the header: both passes of a restore.
 */
async function readThrough(
  file: string,
  header: BackupHeader,
  onEvent: (event: DataSqlEvent) => Promise<void>,
  onImage: (name: string, bytes: Buffer) => Promise<void>,
): Promise<void> {
  const listed = new Map(header.tables.map((table) => [table.name, table.columns]));
  const sequences = new Set(header.sequences);
  const counted = new Map<string, number>();
  await readBackupFile(file, {
    onSql: async (stream) => {
      const events = readDataSql(
        stream as AsyncIterable<Buffer>,
        (table) => listed.get(table),
        (sequence) => sequences.has(sequence),
      );
      for await (const event of events) {
        if (event.kind === 'end-copy') counted.set(event.table, event.rows);
        await onEvent(event);
      }
    },
    onImage,
  });
  for (const table of header.tables) {
    if ((counted.get(table.name) ?? 0) !== table.rows)
      throw new BackupFileError(
        'damaged',
        file,
        `${table.name}: ${counted.get(table.name) ?? 0} of ${table.rows} rows`,
      );
  }
}

export interface RestoreSummary {
  header: BackupHeader;
  /** The migration the target is at now. */
  migratedTo: string;
}

/**
 * Restores `file` into `target`. Refuses a target holding data unless `force`, which first
 * removes everything of Porpoise's from it. `uploadsDir` receives the images.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  options: { force: boolean; migrationsDir: string; uploadsDir: string },
): Promise<RestoreSummary> {
  const header = checkedHeader(file, await readBackupHeader(file), options.migrationsDir);
  const ours = porpoiseObjects(options.migrationsDir);
  for (const table of header.tables) {
    if (!ours.tables.has(table.name))
      throw new BackupFileError('damaged', file, `the table ${table.name} is not one of Porpoise's`);
  }
  // Pass 1, before the target is touched: the whole file against its sums (damage is told as
  // damage, wherever it lies), then its SQL read as the load will read it (every statement
  // understood, each table's rows as the header says).
  await verifyBackupFile(file);
  await readThrough(
    file,
    header,
    async () => undefined,
    async () => undefined,
  );
  await target.ready?.();
  if (await target.inUse?.()) throw new RestoreRefusedError(SERVER_CONNECTED);
  if (!options.force && (await holdsData(target.run, ours.tables))) throw new RestoreRefusedError(NOT_EMPTY);

  // Whatever of Porpoise's is there (another migration, a forced restore's old community) goes.
  for (const statement of await resetStatements(target.run, ours)) await target.run(statement);
  await migrateUpTo(target.db, options.migrationsDir, header.migration.index);

  const tables = await publicTables(target.run, ours.tables);
  const columns = new Map(keptTables(tables).map((table) => [table.name, table.columns]));
  for (const table of header.tables) {
    if (columns.get(table.name)?.join(',') !== table.columns.join(','))
      throw new BackupFileError('damaged', file, `the table ${table.name} is not the one its migration makes`);
  }
  const brackets = await loadBrackets(target.run, ours.tables);
  const owned = await ownedSequences(
    target.run,
    header.tables.map((table) => table.name),
  );
  const storage = await diskStorage(options.uploadsDir);

  const loader = await target.load();
  try {
    // Emptied first: migrations write rows of their own (PorpChat's thread, the counters).
    await loader.statement(
      `truncate ${tables.map((table) => `public.${quoteIdentifier(table.name)}`).join(', ')} restart identity cascade`,
    );
    for (const statement of brackets.before) await loader.statement(statement);
    const set = new Set<string>();
    const columnsOf = new Map(header.tables.map((table) => [table.name, table.columns]));
    await readThrough(
      file,
      header,
      async (event) => {
        if (event.kind === 'rows') await loader.copy(event.table, columnsOf.get(event.table)!, event.text);
        else if (event.kind === 'setval') {
          set.add(event.sequence);
          await loader.statement(
            `select pg_catalog.setval('public.${quoteIdentifier(event.sequence)}', ${event.value}, ${event.called})`,
          );
        }
      },
      (name, bytes) => storage.put(name, bytes),
    );
    // A sequence the file did not set continues after the highest id loaded.
    for (const sequence of owned.filter((owned) => !set.has(owned.sequence))) {
      const of = `public.${quoteIdentifier(sequence.table)}`;
      await loader.statement(
        `select pg_catalog.setval('public.${quoteIdentifier(sequence.sequence)}', max(${quoteIdentifier(sequence.column)})) from ${of} having count(*) > 0`,
      );
    }
    for (const statement of brackets.after) await loader.statement(statement);
    await loader.commit();
  } catch (error) {
    await loader.abort();
    throw error;
  }
  await migrateUpTo(target.db, options.migrationsDir);
  const marks = migrationMarks(options.migrationsDir);
  return { header, migratedTo: marks.at(-1)!.tag };
}
