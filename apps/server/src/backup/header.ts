// A backup's header (docs/product.md section 15): the first entry of the file, read to list a
// backup and checked before a restore touches anything.
import { z } from 'zod';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION } from './archive.ts';

const name = z.string().regex(/^[a-z_][a-z0-9_]*$/);

export const backupHeaderSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(BACKUP_FORMAT_VERSION),
  /** When the snapshot was taken (the database's clock, ISO 8601). */
  snapshotAt: z.string(),
  createdAt: z.string(),
  porpoiseVersion: z.string(),
  source: z.object({
    database: z.enum(['pglite', 'postgres']),
    serverVersion: z.string(),
    /** What wrote the SQL: pg_dump (with its version) or the embedded database's COPY. */
    tool: z.string(),
  }),
  migration: z.object({
    index: z.number().int().nonnegative(),
    tag: z.string(),
    when: z.number().int(),
    hash: z.string(),
  }),
  tables: z.array(z.object({ name, columns: z.array(name), rows: z.number().int().nonnegative() })),
  sequences: z.array(name),
  excluded: z.array(name),
  images: z.object({
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** Images a row names whose file was not there when the backup was taken (logged, not in it). */
    missing: z.array(z.string()),
  }),
});

export type BackupHeader = z.infer<typeof backupHeaderSchema>;
