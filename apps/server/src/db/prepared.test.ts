import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createPostgresDatabase, createTestDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { openDatabase, queryPrepared, queryRows, type Database } from './client.ts';

describe.each(DATABASE_KINDS)('queryPrepared on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database.close());

  it('answers like queryRows, call after call, whatever the values', async () => {
    const statement = (n: number) => sql`select ${n}::int as n, ${`word ${n}`}::text as word, now() as at`;
    for (const n of [1, 2, 3]) {
      const [prepared] = await queryPrepared<{ n: number; word: string; at: string }>(database.db, statement(n));
      const [plain] = await queryRows<{ n: number; word: string; at: string }>(database.db, statement(n));
      expect(prepared).toMatchObject({ n, word: `word ${n}` });
      expect(typeof prepared!.at).toBe(typeof plain!.at);
    }
    // A different text under the same helper is a different statement, not a clash.
    expect(await queryPrepared(database.db, sql`select ${7}::int as seven`)).toEqual([{ seven: 7 }]);
  });

  it('keeps the statement prepared on the database, by its name', async () => {
    const statement = (n: number) => sql`select ${n}::int as kept_${sql.raw(kind)}`;
    await queryPrepared(database.db, statement(1));
    expect(await queryPrepared(database.db, statement(2))).toEqual([{ [`kept_${kind}`]: 2 }]);
    const prepared = await queryRows<{ name: string }>(
      database.db,
      sql`select name from pg_prepared_statements where statement = ${`select $1::int as kept_${kind}`}`,
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^p_/) as string }]);
  });

  it('sends and parses every kind of value as queryRows does', async () => {
    const statement = (
      n: number,
      words: string[] | null,
    ) => sql`select ${n}::int as n, ${String(n * 10 ** 12)}::bigint as big,
      ${sql.param(words)}::text[] as words, ${sql.param([n, n + 1])}::int[] as numbers, ${n % 2 === 0} as even, null::text as nothing,
      ${`it's "${n}"`}::text as quoted, ${JSON.stringify({ n })}::jsonb as doc, 1.5::numeric as exact, now() as at,
      ${new Date(Date.UTC(2026, 0, n))}::timestamptz as given`;
    for (const [n, words] of [
      [1, ['a', 'b,c', 'd "e"']],
      [2, null],
      [3, []],
    ] as const) {
      const [prepared] = await queryPrepared(database.db, statement(n, words as string[] | null));
      const [plain] = await queryRows(database.db, statement(n, words as string[] | null));
      expect(prepared).toEqual({ ...(plain as object), at: (prepared as { at: unknown }).at });
      expect(typeof (prepared as { at: unknown }).at).toBe(typeof (plain as { at: unknown }).at);
    }
  });

  it('throws the database error of a failed statement and leaves the database usable', async () => {
    const failing = (n: number) => sql`select 1 / ${n}::int as quotient`;
    expect(await queryPrepared(database.db, failing(1))).toEqual([{ quotient: 1 }]);
    await expect(queryPrepared(database.db, failing(0))).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '22012' }) as unknown,
    });
    expect(await queryPrepared(database.db, failing(2))).toEqual([{ quotient: 0 }]);
    await expect(queryPrepared(database.db, sql`select * from no_such_table where id = ${1}`)).rejects.toThrow();
    expect(await queryPrepared(database.db, failing(1))).toEqual([{ quotient: 1 }]);
  });

  it('writes in a transaction and undoes them with it', async () => {
    await queryRows(database.db, sql`create table if not exists prepared_${sql.raw(kind)} (n int)`);
    const insert = (n: number) => sql`insert into prepared_${sql.raw(kind)} (n) values (${n}) returning n`;
    await expect(
      database.db.transaction(async (tx) => {
        expect(await queryPrepared(tx, insert(1))).toEqual([{ n: 1 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await database.db.transaction(async (tx) => {
      await queryPrepared(tx, insert(2));
    });
    expect(await queryRows(database.db, sql`select n from prepared_${sql.raw(kind)}`)).toEqual([{ n: 2 }]);
  });
});

describe('queryPrepared on PostgreSQL', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let database: Database;
  beforeAll(async () => {
    created = await createPostgresDatabase();
    // One connection, so the statement's session is the one asked about.
    database = await openDatabase({
      kind: 'postgres',
      url: created.url,
      migrationsDir: loadConfig({}).migrationsDir,
      poolSize: 1,
    });
  });
  afterAll(async () => {
    await database.close();
    await created.drop();
  });

  it('keeps only that statement prepared on the connection', async () => {
    await queryPrepared(database.db, sql`select ${1}::int as one`);
    await queryPrepared(database.db, sql`select ${2}::int as one`);
    const prepared = await queryRows<{ name: string; statement: string }>(
      database.db,
      sql`select name, statement from pg_prepared_statements`,
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^p_/) as string, statement: 'select $1::int as one' }]);
  });
});
