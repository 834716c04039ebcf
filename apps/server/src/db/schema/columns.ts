import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

/** Surrogate key: a bigint identity, sent to clients as a string `_id`. */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
export const ref = (name: string) => bigint(name, { mode: 'number' });
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** PostgreSQL's full-text document type. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Raw bytes. */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
