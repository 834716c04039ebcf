// Databases of either kind for the backup suites (src/backup/*.test.ts): each a DATA_DIR, an
// uploads directory and, on PostgreSQL, an empty database of its own.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { RunSql } from '../backup/catalog.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDurablePglite } from '../db/durable-node-fs.ts';
import { createPostgresDatabase, type DatabaseKind } from './databases.ts';
import { startTestApp } from './test-app.ts';

/** A database of either kind: its DATA_DIR, its uploads, and its URL when on PostgreSQL. */
export interface Place {
  dataDir: string;
  uploadsDir: string;
  url: string;
}

/** Makes places under `dir`; `dropAll` drops their PostgreSQL databases (the caller removes `dir`). */
export function placesIn(dir: string): {
  newPlace: (kind: DatabaseKind) => Promise<Place>;
  dropAll: () => Promise<void>;
} {
  const drops: (() => Promise<void>)[] = [];
  return {
    newPlace: async (kind) => {
      const base = fs.mkdtempSync(path.join(dir, `${kind}-`));
      const place = { dataDir: path.join(base, 'data'), uploadsDir: path.join(base, 'uploads'), url: '' };
      if (kind === 'postgres') {
        const created = await createPostgresDatabase();
        place.url = created.url;
        drops.push(created.drop);
      }
      return place;
    },
    dropAll: async () => {
      for (const drop of drops.splice(0)) await drop();
    },
  };
}

/** The configuration `npm run backup` and `npm run restore` would read for the place. */
export function configOf(kind: DatabaseKind, place: Place): Config {
  const config = loadConfig({ DATA_DIR: place.dataDir, UPLOADS_DIR: place.uploadsDir });
  config.databaseUrl = kind === 'postgres' ? place.url : undefined;
  return config;
}

/** The real app on the place's database (migrating it, as a server's start does). */
export const appOn = (kind: DatabaseKind, place: Place) =>
  startTestApp(kind, {
    env: { DATA_DIR: place.dataDir, UPLOADS_DIR: place.uploadsDir },
    ...(kind === 'postgres' ? { databaseUrl: place.url } : { dataDir: place.dataDir }),
  });

/** Runs `work` on the database itself (no server, no migrations): PostgreSQL's client, or PGlite on the directory. */
export async function withDatabase<T>(kind: DatabaseKind, place: Place, work: (run: RunSql) => Promise<T>): Promise<T> {
  if (kind === 'postgres') {
    const client = new pg.Client({ connectionString: place.url });
    await client.connect();
    try {
      return await work(async <R>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as R[]);
    } finally {
      await client.end();
    }
  }
  const pglite = await openDurablePglite(path.join(place.dataDir, 'pgdata'));
  try {
    return await work(async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows);
  } finally {
    await pglite.close();
  }
}
