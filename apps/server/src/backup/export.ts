// Taking a backup (docs/product.md section 15): the data as of one snapshot, in pg_dump's plain
// data-only text, plus the images its rows name, in one file (archive.ts).
//
// - PostgreSQL: pg_dump itself, inside a snapshot this process exports and holds, so the
//   catalog, the image list and the rows are all of one moment while writes go on.
// - The embedded database: PostgreSQL's own COPY (PGlite is PostgreSQL), in one read-only
//   repeatable-read transaction, writing the same text. PGlite has no pg_dump of its own that
//   fits: see docs/decisions.md.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, writeBackupFile } from './archive.ts';
import {
  appliedMigration,
  EXCLUDED_TABLES,
  keptTables,
  ownedSequences,
  publicTables,
  type RunSql,
  type TableColumns,
} from './catalog.ts';
import { copyLine, readDataSql, setvalLine, type DataSqlEvent } from './data-sql.ts';
import type { BackupHeader } from './header.ts';
import { markOf, migrationMarks, porpoiseObjects, type MigrationMark } from './migrations.ts';
import { IMAGE_GATE_LOCK } from '../uploads/image-gate.ts';
import { postgresToolEnv, runTool, toolPath } from './pg-tools.ts';

export interface BackupOptions {
  /** The file to write (its directory must exist). */
  out: string;
  uploadsDir: string;
  migrationsDir: string;
  porpoiseVersion: string;
  /** When the snapshot was taken, if before this export began (a copy of the files made earlier, live.ts). */
  snapshotAt?: string;
}

/** The file name section 15 gives a backup taken at `at` (UTC). */
export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replaceAll('-', '')
    .replaceAll(':', '')
    .replace('T', '-');
  return `porpoise-${stamp}.porpoise-backup`;
}

/** What the snapshot's catalog says, read before the rows. */
interface SnapshotPlan {
  snapshotAt: string;
  migration: MigrationMark;
  tables: TableColumns[];
  sequences: string[];
  images: string[];
}

async function planSnapshot(run: RunSql, migrationsDir: string): Promise<SnapshotPlan> {
  const [now] = await run<{ at: string }>(
    `select to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at`,
  );
  const applied = await appliedMigration(run);
  if (applied === null) throw new Error('The database holds no Porpoise schema: there is nothing to back up.');
  const migration = markOf(migrationMarks(migrationsDir), applied);
  if (migration === undefined)
    throw new Error(
      'The database was migrated by a newer or different Porpoise than this one: back it up with that Porpoise.',
    );
  // Only Porpoise's own tables: another application's, in the same database, are not ours to carry.
  const tables = keptTables(await publicTables(run, porpoiseObjects(migrationsDir).tables));
  const sequences = (
    await ownedSequences(
      run,
      tables.map((table) => table.name),
    )
  ).map((owned) => owned.sequence);
  const hasUploads = tables.some((table) => table.name === 'uploads');
  const images = hasUploads
    ? (await run<{ name: string }>('select name from public.uploads order by name')).map((row) => row.name)
    : [];
  return { snapshotAt: now!.at, migration, tables, sequences, images };
}

/** Writes the SQL part as events arrive, counting each table's rows (a failed write, a full disk, fails it). */
async function spool(events: AsyncIterable<DataSqlEvent>, file: string): Promise<Map<string, number>> {
  const rows = new Map<string, number>();
  async function* text(): AsyncGenerator<string> {
    for await (const event of events) {
      if (event.kind === 'copy') yield copyLine(event.table, event.columns);
      else if (event.kind === 'rows') yield event.text;
      else if (event.kind === 'end-copy') {
        rows.set(event.table, event.rows);
        yield '\\.\n\n';
      } else yield setvalLine(event.sequence, event.value, event.called);
    }
  }
  await pipeline(Readable.from(text()), fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  return rows;
}

async function writeArchive(
  options: BackupOptions,
  plan: SnapshotPlan,
  source: BackupHeader['source'],
  sqlPath: string,
  rows: Map<string, number>,
): Promise<BackupHeader> {
  const images: { name: string; path: string }[] = [];
  const missing: string[] = [];
  let bytes = 0;
  for (const name of plan.images) {
    const file = path.join(options.uploadsDir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat === null) missing.push(name);
    else {
      images.push({ name, path: file });
      bytes += stat.size;
    }
  }
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    snapshotAt: plan.snapshotAt,
    createdAt: new Date().toISOString(),
    porpoiseVersion: options.porpoiseVersion,
    source,
    migration: plan.migration,
    tables: plan.tables.map((table) => ({ ...table, rows: rows.get(table.name) ?? 0 })),
    sequences: plan.sequences,
    excluded: [...EXCLUDED_TABLES],
    images: { count: images.length, bytes, missing },
  };
  await writeBackupFile(options.out, header, sqlPath, images);
  return header;
}

/** A temporary file beside `out` for the SQL part (the archive needs its size before it). */
const spoolPath = (out: string) =>
  path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(6).toString('hex')}.sql`);

/** Backs up a PostgreSQL database with pg_dump, consistent as of one snapshot. */
export async function backupPostgres(
  url: string,
  options: BackupOptions & { pgBinDir?: string },
): Promise<BackupHeader> {
  const client = new pg.Client({ connectionString: url, application_name: 'porpoise-backup' });
  // A connection lost while pg_dump runs (a restart, a timeout) fails the backup, not the process.
  let lost: Error | null = null;
  client.on('error', (error) => (lost = error));
  await client.connect();
  const sqlPath = spoolPath(options.out);
  try {
    const run: RunSql = async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[];
    // The sweep deletes no image from before the snapshot until the images are packed (held
    // for the session: released when the connection ends, below).
    await client.query('select pg_advisory_lock($1)', [IMAGE_GATE_LOCK]);
    await client.query('begin isolation level repeatable read read only');
    const [exported] = await run<{ id: string; version: string }>(
      `select pg_export_snapshot() as id, current_setting('server_version') as version`,
    );
    const plan = await planSnapshot(run, options.migrationsDir);
    const dumpVersion = (await runTool('pg_dump', ['--version'], { binDir: options.pgBinDir })).trim();
    const dump = spawn(
      toolPath('pg_dump', options.pgBinDir),
      [
        '--data-only',
        '--format=plain',
        '--no-owner',
        '--no-privileges',
        '--encoding=UTF8',
        `--snapshot=${exported!.id}`,
        ...plan.tables.flatMap((table) => ['--table', `public."${table.name}"`]),
      ],
      { env: postgresToolEnv(url), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let errors = '';
    dump.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
    const exited = new Promise<number | null>((resolve, reject) => {
      dump.on('error', reject);
      dump.on('close', resolve);
    });
    const columns = new Map(plan.tables.map((table) => [table.name, table.columns]));
    const sequences = new Set(plan.sequences);
    let rows: Map<string, number>;
    try {
      rows = await spool(
        readDataSql(
          dump.stdout,
          (table) => columns.get(table),
          (sequence) => sequences.has(sequence),
        ),
        sqlPath,
      );
    } catch (error) {
      dump.kill();
      await exited.catch(() => undefined);
      throw error;
    }
    const code = await exited;
    if (code !== 0) throw new Error(`pg_dump failed (exit ${code}): ${warningsDropped(errors)}`);
    if (lost) throw new Error(`The backup's connection to PostgreSQL was lost: ${(lost as Error).message}`);
    await client.query('commit');
    return await writeArchive(
      options,
      plan,
      { database: 'postgres', serverVersion: exported!.version, tool: dumpVersion },
      sqlPath,
      rows,
    );
  } finally {
    await fs.promises.rm(sqlPath, { force: true });
    await client.end().catch(() => undefined);
  }
}

/** pg_dump's stderr without its expected warning about tables that reference each other. */
function warningsDropped(errors: string): string {
  return errors
    .split('\n')
    .filter((line) => line !== '' && !/^pg_dump: (warning|detail|hint):/.test(line))
    .join('\n');
}

/** Rows are read this many heap pages at a time (32 MB at most of table per COPY). */
const PAGES_PER_COPY = 4096;

/**
 * Backs up the embedded database, open in this thread (the CLI's own, with the server stopped),
 * in one read-only repeatable-read transaction.
 */
export async function backupPglite(pglite: PGlite, options: BackupOptions): Promise<BackupHeader> {
  const run: RunSql = async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows;
  const sqlPath = spoolPath(options.out);
  await pglite.exec('begin isolation level repeatable read read only');
  try {
    // The text pg_dump's connection would write.
    await pglite.exec(
      `set local datestyle = 'ISO, MDY'; set local timezone = 'UTC'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3`,
    );
    const [server] = await run<{ version: string }>(`select current_setting('server_version') as version`);
    const plan = await planSnapshot(run, options.migrationsDir);
    if (options.snapshotAt !== undefined) plan.snapshotAt = options.snapshotAt;
    async function* events(): AsyncGenerator<DataSqlEvent> {
      for (const table of plan.tables) {
        const [size] = await run<{ pages: number }>(
          `select (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int as pages`,
          [`public."${table.name}"`],
        );
        yield { kind: 'copy', table: table.name, columns: table.columns };
        const list = table.columns.map((column) => `"${column}"`).join(', ');
        let count = 0;
        for (let first = 0; first === 0 || first < size!.pages; first += PAGES_PER_COPY) {
          const last = first + PAGES_PER_COPY >= size!.pages ? '' : ` and ctid < '(${first + PAGES_PER_COPY},0)'::tid`;
          const result = await pglite.query(
            `copy (select ${list} from public."${table.name}" where ctid >= '(${first},0)'::tid${last}) to '/dev/blob'`,
          );
          const text = result.blob ? await result.blob.text() : '';
          const rows = result.affectedRows ?? 0;
          count += rows;
          if (rows > 0) yield { kind: 'rows', table: table.name, text, count: rows };
        }
        yield { kind: 'end-copy', table: table.name, rows: count };
      }
      for (const sequence of plan.sequences) {
        const [state] = await run<{ value: string; called: boolean }>(
          `select last_value::text as value, is_called as called from public."${sequence}"`,
        );
        yield { kind: 'setval', sequence, value: state!.value, called: state!.called };
      }
    }
    const rows = await spool(events(), sqlPath);
    await pglite.exec('commit');
    return await writeArchive(
      options,
      plan,
      { database: 'pglite', serverVersion: `${server!.version} (PGlite)`, tool: 'COPY' },
      sqlPath,
      rows,
    );
  } catch (error) {
    await pglite.exec('rollback').catch(() => undefined);
    throw error;
  } finally {
    await fs.promises.rm(sqlPath, { force: true });
  }
}
