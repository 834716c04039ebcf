import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase, type Database } from '../db/client.ts';

export type DatabaseKind = 'pglite' | 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite cluster (dumpDataDir, global-setup.ts): test databases start from it. */
    pgliteTemplate: string;
  }
}

/** Every suite that touches storage runs on both: the embedded default and a real PostgreSQL. */
export const DATABASE_KINDS: DatabaseKind[] = ['pglite', 'postgres'];

/** The PostgreSQL server the tests use; each run gets its own fresh database on it. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function urlFor(databaseName: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL tests need a server at ${TEST_POSTGRES_URL} (set TEST_DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty PostgreSQL database and returns its URL and a function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `porpoise_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`create database ${name}`));
  return {
    url: urlFor(name),
    drop: () =>
      withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/**
 * A fresh, migrated database of the given kind; closing it also drops a PostgreSQL one. A
 * PGlite one starts from the run's migrated cluster (global-setup.ts); its migrations still
 * run, and find nothing left to apply. `url`: an existing PostgreSQL database (not dropped);
 * `dataDir`: PGlite on that directory.
 */
export async function createTestDatabase(kind: DatabaseKind, url?: string, dataDir?: string): Promise<Database> {
  const { migrationsDir } = loadConfig({});
  if (kind === 'pglite') {
    // On a data directory (a backup test's), a new cluster migrated there.
    if (dataDir !== undefined) return openDatabase({ kind, dataDir, migrationsDir });
    return openDatabase({ kind, dataDir: undefined, migrationsDir, startFrom: inject('pgliteTemplate') });
  }
  if (url) return openDatabase({ kind, url, migrationsDir, poolSize: 5 });
  const created = await createPostgresDatabase();
  const database = await openDatabase({ kind, url: created.url, migrationsDir, poolSize: 5 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
}
