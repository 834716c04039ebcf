// Where a database's schema stands among our migrations, and migrating one up to a given
// migration: a restore builds the schema a backup was taken at, loads it, then migrates on.
import fs from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** A migration as a backup's header names it. */
export interface MigrationMark {
  /** Its place in the journal, from 0. */
  index: number;
  tag: string;
  /** The journal's `when`, which drizzle records as the migration's `created_at`. */
  when: number;
  /** sha256 of its SQL, as drizzle records it. */
  hash: string;
}

/** Our migrations, in order, as marks. */
export function migrationMarks(migrationsDir: string): MigrationMark[] {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: migrationsDir });
  return journal.entries.map((entry, index) => ({
    index,
    tag: entry.tag,
    when: entry.when,
    hash: files[index]!.hash,
  }));
}

/**
 * What our migrations make in the public schema: its tables and functions, read from their SQL
 * (`CREATE TABLE "name"`, `CREATE [OR REPLACE] FUNCTION name`). A backup carries only these
 * tables, and a restore removes only these: another application's objects in the same
 * database are never touched.
 */
export function porpoiseObjects(migrationsDir: string): { tables: Set<string>; functions: Set<string> } {
  const tables = new Set<string>();
  const functions = new Set<string>();
  for (const migration of readMigrationFiles({ migrationsFolder: migrationsDir })) {
    for (const text of migration.sql) {
      for (const match of text.matchAll(/CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?"([a-z_0-9]+)"/gi))
        tables.add(match[1]!);
      for (const match of text.matchAll(/CREATE (?:OR REPLACE )?FUNCTION (?:public\.)?"?([a-z_0-9]+)"?\(/gi))
        functions.add(match[1]!);
    }
  }
  return { tables, functions };
}

/** The mark of what drizzle recorded last (its `created_at` and hash), or undefined for one we do not have. */
export function markOf(marks: MigrationMark[], applied: { hash: string; when: number }): MigrationMark | undefined {
  return marks.find((mark) => mark.when === applied.when && mark.hash === applied.hash);
}

/**
 * Applies our migrations up to and including `index` (all of them when undefined), as the
 * server's start does, on drizzle's own migrator.
 */
export async function migrateUpTo(
  db: PgDatabase<PgQueryResultHKT, Record<string, unknown>>,
  migrationsDir: string,
  index?: number,
): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: migrationsDir });
  await new PgDialect().migrate(
    index === undefined ? migrations : migrations.slice(0, index + 1),
    db._.session as Parameters<PgDialect['migrate']>[1],
    { migrationsFolder: migrationsDir },
  );
}
