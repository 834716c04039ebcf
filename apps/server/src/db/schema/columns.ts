import { sql } from 'drizzle-orm';
import { bigint, check, customType, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Surrogate key: a bigint identity, sent to clients as a string `_id`. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
export const ref = (name: string) => bigint(name, { mode: 'number' });
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** PostgreSQL's full-text document type. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Raw bytes. */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * A post held from view with nobody having deleted it (docs/product.md section 10): `held_for`
 * is 'flags' or 'approval', and only on a row that is deleted by nobody.
 */
export const heldCheck = (table: string, t: { heldFor: AnyPgColumn; deletedAt: AnyPgColumn; deletedBy: AnyPgColumn }) =>
  check(
    `${table}_held_for_check`,
    sql`${t.heldFor} is null or (${t.heldFor} in ('flags', 'approval') and ${t.deletedAt} is not null and ${t.deletedBy} is null)`,
  );
