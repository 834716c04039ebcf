// What a backup reads from a database's catalog, and what a restore asks of one, on either
// database: both answer the same SQL (PostgreSQL 15 and later, and the embedded PGlite).

/** Runs one statement and returns its rows (pg's Client, or PGlite in the calling thread). */
export type RunSql = <T>(text: string, params?: unknown[]) => Promise<T[]>;

/**
 * Tables never in a backup: sign-ins (restoring ends every session, section 15, and token hashes
 * stay out of files), rate-limit counters, one-hour account links, and the socket.io adapter's
 * scratch rows. A restore leaves them empty.
 */
export const EXCLUDED_TABLES = ['sessions', 'rate_limits', 'account_tokens', 'socket_io_attachments'] as const;
const excluded = new Set<string>(EXCLUDED_TABLES);

export interface TableColumns {
  name: string;
  /** Every column but generated ones, in the table's order (what COPY writes and reads). */
  columns: string[];
}

/**
 * The public schema's tables, with their columns (extension members are not ours); with
 * `only`, just those named there (what our migrations make: migrations.ts porpoiseObjects).
 */
export async function publicTables(run: RunSql, only?: ReadonlySet<string>): Promise<TableColumns[]> {
  const rows = await run<{ table: string; columns: string[] | null }>(
    `select c.relname as "table",
       array_agg(a.attname::text order by a.attnum) filter (where a.attname is not null) as columns
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
     left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     where c.relkind in ('r', 'p')
       and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
     group by c.relname order by c.relname`,
  );
  return rows
    .filter((row) => only === undefined || only.has(row.table))
    .map((row) => ({ name: row.table, columns: row.columns ?? [] }));
}

/** The tables a backup carries: every public table but the excluded ones. */
export const keptTables = (tables: TableColumns[]): TableColumns[] =>
  tables.filter((table) => !excluded.has(table.name));

/** The sequences owned by the given tables' columns (identity columns), with their owner. */
export async function ownedSequences(
  run: RunSql,
  tables: readonly string[],
): Promise<{ sequence: string; table: string; column: string }[]> {
  return run(
    `select s.relname as sequence, t.relname as "table", a.attname as column
     from pg_depend d
     join pg_class s on s.oid = d.objid and s.relkind = 'S'
     join pg_class t on t.oid = d.refobjid
     join pg_namespace n on n.oid = t.relnamespace and n.nspname = 'public'
     join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
     where d.deptype in ('a', 'i') and t.relname = any($1::text[])
     order by s.relname`,
    [tables],
  );
}

/** The last migration applied (drizzle's table), or null before any. */
export async function appliedMigration(run: RunSql): Promise<{ hash: string; when: number } | null> {
  const [exists] = await run<{ present: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!exists?.present) return null;
  const [row] = await run<{ hash: string; when: string }>(
    `select hash, created_at::text as "when" from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  );
  return row ? { hash: row.hash, when: Number(row.when) } : null;
}

/**
 * Whether the database holds no community yet: no tables of ours, or every table empty but
 * for what migrations themselves write (PorpChat's thread, 0001; the question counters' one
 * row, 0003). A fresh database the server started on once counts as empty.
 */
export async function holdsData(run: RunSql, ours: ReadonlySet<string>): Promise<boolean> {
  for (const table of keptTables(await publicTables(run, ours))) {
    const name = `public."${table.name.replaceAll('"', '""')}"`;
    const where =
      table.name === 'threads' ? ` where kind <> 'porpchat'` : table.name === 'question_counters' ? ' where false' : '';
    const [row] = await run<{ any: boolean }>(`select exists (select 1 from ${name}${where}) as any`);
    if (row?.any) return true;
  }
  return false;
}

/**
 * Statements that remove everything of Porpoise's from a database (the tables and functions
 * our migrations make, with what depends on them, and drizzle's migration table), before a
 * forced restore or one into a database left at another migration. Nothing else in the
 * database is touched.
 */
export async function resetStatements(
  run: RunSql,
  ours: { tables: ReadonlySet<string>; functions: ReadonlySet<string> },
): Promise<string[]> {
  const quoted = (name: string) => `public."${name.replaceAll('"', '""')}"`;
  const tables = await publicTables(run, ours.tables);
  const functions = await run<{ name: string; signature: string }>(
    `select c.proname as name, format('%I(%s)', c.proname, pg_get_function_identity_arguments(c.oid)) as signature
     from pg_proc c join pg_namespace n on n.oid = c.pronamespace and n.nspname = 'public'`,
  );
  return [
    'DROP SCHEMA IF EXISTS drizzle CASCADE',
    ...tables.map((table) => `DROP TABLE IF EXISTS ${quoted(table.name)} CASCADE`),
    ...functions
      .filter((fn) => ours.functions.has(fn.name))
      .map((fn) => `DROP FUNCTION IF EXISTS public.${fn.signature} CASCADE`),
  ];
}

/**
 * What a load drops first and makes again after, as pg_restore orders it: every foreign key
 * (rows of tables that point at each other, questions and answers, load in any order) and every
 * index no constraint owns (built once over the loaded rows, not row by row).
 */
export async function loadBrackets(
  run: RunSql,
  ours: ReadonlySet<string>,
): Promise<{ before: string[]; after: string[] }> {
  const keys = await run<{ table: string; name: string; definition: string }>(
    `select t.relname as "table", c.conname as name, pg_get_constraintdef(c.oid) as definition
     from pg_constraint c join pg_class t on t.oid = c.conrelid
     join pg_namespace n on n.oid = t.relnamespace and n.nspname = 'public'
     where c.contype = 'f' and t.relname = any($1::text[]) order by t.relname, c.conname`,
    [[...ours]],
  );
  const indexes = await run<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
     from pg_index x join pg_class i on i.oid = x.indexrelid
     join pg_class t on t.oid = x.indrelid
     join pg_namespace n on n.oid = i.relnamespace and n.nspname = 'public'
     where not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)
       and t.relname = any($1::text[])
     order by i.relname`,
    [[...ours]],
  );
  const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return {
    before: [
      ...keys.map((key) => `ALTER TABLE public.${q(key.table)} DROP CONSTRAINT ${q(key.name)}`),
      ...indexes.map((index) => `DROP INDEX public.${q(index.name)}`),
    ],
    after: [
      ...indexes.map((index) => index.definition),
      ...keys.map((key) => `ALTER TABLE public.${q(key.table)} ADD CONSTRAINT ${q(key.name)} ${key.definition}`),
    ],
  };
}
