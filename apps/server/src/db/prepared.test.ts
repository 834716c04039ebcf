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

  it('keeps the statement prepared on the connection', async () => {
    await queryPrepared(database.db, sql`select ${1}::int as one`);
    await queryPrepared(database.db, sql`select ${2}::int as one`);
    const prepared = await queryRows<{ name: string; statement: string }>(
      database.db,
      sql`select name, statement from pg_prepared_statements`,
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^p_/) as string, statement: 'select $1::int as one' }]);
  });
});
