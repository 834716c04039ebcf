import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, PgTransaction, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { DEFAULT_POOL_SIZE, type Config } from '../config.ts';
import * as schema from './schema.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { startPgliteThread, type FlushCounts, type PgliteThreadEvent } from './pglite-thread.ts';
import { statementName } from './statement-names.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** The transaction a `db.transaction(async (tx) => ...)` callback gets. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Runs `work` in a transaction: the one `db` already is (a command the event processor runs
 * inside its own, events/processor.ts `write`), else a new one. No savepoint: a command's
 * statements and what the processor writes with them commit together.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? work(db as Tx) : db.transaction(work);
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection string when on PostgreSQL (the socket.io adapter opens its own pool). */
  url: string | undefined;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * The embedded database on disk: copies its files, as of the last commit, into `dir`
   * (a backup's snapshot, backup/live.ts). Every statement waits meanwhile.
   */
  snapshotTo?: (dir: string) => Promise<void>;
  /** The embedded database's DATA_DIR (on disk); undefined in memory and on PostgreSQL. */
  dataDir?: string;
  /** PostgreSQL's pool: connections open, idle, and queries waiting for one (for metrics). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** The embedded database's grouped commits: WAL flushes and the writes they answered (for metrics). */
  flushCounts?: () => FlushCounts;
  /**
   * The embedded database's thread stopped (it is restarted, or the server exits): `listener`
   * runs each time. Reads may have seen commits not yet flushed (grouped commits answer only
   * flushed writes, reads never wait), which a dead thread loses: whatever was kept from
   * reads goes.
   */
  onThreadLost?: (listener: () => void) => void;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; migrationsDir: string; poolSize?: number }
  /**
   * dataDir undefined: in memory (tests), a new cluster or the dump `startFrom` names. The
   * thread is restarted up to restartsPerMinute times a minute; onThreadEvent hears it stop,
   * restart or fail.
   */
  | {
      kind: 'pglite';
      dataDir: string | undefined;
      migrationsDir: string;
      restartsPerMinute?: number;
      onThreadEvent?: (event: PgliteThreadEvent) => void;
      startFrom?: string;
    };

/** The application_name of the server's PostgreSQL connections. */
export const SERVER_APPLICATION_NAME = 'porpoise';
/**
 * The names a running server's connections go by: its pool's (closed when idle) and the one
 * it always holds to hear other processes (cache/signals.ts): how a restore sees a server.
 */
export const SERVER_APPLICATION_NAMES = [SERVER_APPLICATION_NAME, 'porpoise-signals'];

// Migrations from several processes starting at once are serialised by this advisory lock.
const MIGRATION_LOCK_ID = 7_206_431;

/** The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR. */
export function openConfiguredDatabase(
  config: Config,
  onThreadEvent?: (event: PgliteThreadEvent) => void,
): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        migrationsDir: config.migrationsDir,
        poolSize: config.databasePoolSize,
      })
    : openDatabase({
        kind: 'pglite',
        dataDir: config.dataDir,
        migrationsDir: config.migrationsDir,
        restartsPerMinute: config.pgliteRestarts,
        onThreadEvent,
      });
}

/** Opens the database (PGlite by default, PostgreSQL with a URL) and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      // How a restore (backup/restore.ts) sees a server still connected to its target.
      application_name: SERVER_APPLICATION_NAME,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      // Every query here is short. On a search over a million questions PostgreSQL's
      // defaults compiled it (JIT, 12 ms) and started parallel workers (30 ms) to return
      // 7 rows in 1 ms: both are off for the server's own connections.
      options: '-c jit=off -c max_parallel_workers_per_gather=0',
    });
    // An idle client losing its server (a PostgreSQL restart) must not crash the process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = drizzlePg({ client: pool, schema });
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder: options.migrationsDir });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
      client.release();
    }
    return {
      db,
      kind: 'postgres',
      url: options.url,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }

  const release = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    // PGlite runs on its own thread: a slow query must not stop the event loop.
    const lostListeners: Array<() => void> = [];
    const client = await startPgliteThread(options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined, {
      restartsPerMinute: options.restartsPerMinute,
      onEvent: (event) => {
        if (event.type === 'stopped') for (const listener of lostListeners) listener();
        options.onThreadEvent?.(event);
      },
      startFrom: options.startFrom,
    });
    // drizzle uses only query() and transaction(), which the thread's client provides.
    const db = drizzlePglite({ client: client as unknown as PGlite, schema });
    await migratePglite(db, { migrationsFolder: options.migrationsDir });
    return {
      db,
      kind: 'pglite',
      url: undefined,
      ...(options.dataDir === undefined
        ? {}
        : { dataDir: options.dataDir, snapshotTo: (dir: string) => client.snapshot(dir) }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      flushCounts: () => client.flushCounts(),
      onThreadLost: (listener) => lostListeners.push(listener),
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Runs raw SQL and returns its rows; both drivers answer with `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

const dialect = new PgDialect();

/**
 * queryRows for the statements every write runs: on PostgreSQL a named prepared statement,
 * parsed and planned once per connection instead of on every call (PostgreSQL's CPU for the
 * answer statement at 1,000 a second: 0.97 -> 0.73 ms a call, pgbench, extended against
 * prepared). The name is the text's hash, so one name always stands for one text. Only
 * for statements whose text takes a few shapes: each shape stays prepared on every
 * connection. The embedded database's thread runs it as a named statement too
 * (pglite-worker.ts `queryNamed`), where planning costs most: the answer's notification
 * statement, 6-7 ms planned every call, runs in about 1 ms once prepared.
 */
export async function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = statementName(built.sql);
  const result: unknown = await db._.session.prepareQuery(built, undefined, name, false).execute();
  return (result as { rows: T[] }).rows;
}
