import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { uniqueViolation } from './errors.ts';
import { openDatabase, queryRows, type Database } from './client.ts';
import { accounts } from './schema.ts';

/** The embedded database runs on its own thread (pglite-thread.ts, pglite-worker.ts). */
describe('PGlite on its own thread', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: undefined, migrationsDir: loadConfig({}).migrationsDir });
  });
  afterAll(async () => database.close());

  it('keeps the event loop free while a slow query runs', async () => {
    const started = performance.now();
    let finished = 0;
    const slow = database.db
      .execute(sql`select count(*) from generate_series(1, 4000000)`)
      .then(() => (finished = performance.now()));
    // Timers that fire while the query runs: none could, were it running on this thread.
    // Counted, not timed: a gap between two timers grows on a busy machine, the count of
    // turns the loop takes during a 300+ ms query does not fall to a handful.
    let turns = 0;
    while (!finished) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (!finished) turns += 1;
    }
    await slow;
    // The query took long enough to matter, and the loop kept turning meanwhile.
    expect(finished - started).toBeGreaterThan(300);
    expect(turns).toBeGreaterThan(10);
  });

  it('keeps 32 MB of shared buffers (PGlite defaults to 128 MB, all resident from the start)', async () => {
    const [row] = await queryRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`);
    expect(row?.shared_buffers).toBe('32MB');
  });

  it('commits a transaction, and rolls back everything of one that throws', async () => {
    const name = `thread_${Date.now()}`;
    const row = { username: name, email: `${name}@example.com`, passwordHash: 'x' };
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(accounts).values(row);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`select count(*)::int as n from accounts where username = ${name}`,
        )
      )[0]?.n;
    expect(await count()).toBe(0);
    await database.db.transaction(async (tx) => {
      await tx.insert(accounts).values(row);
    });
    expect(await count()).toBe(1);
  });

  it('hands back PostgreSQL errors with their code and constraint', async () => {
    const name = `dup_${Date.now()}`;
    const row = { username: name, email: `${name}@example.com`, passwordHash: 'x' };
    await database.db.insert(accounts).values(row);
    const error: unknown = await database.db
      .insert(accounts)
      .values({ ...row, email: `other_${name}@example.com` })
      .then(
        () => null,
        (failure: unknown) => failure,
      );
    expect(uniqueViolation(error)).toBeTruthy();
  });

  it('runs transactions one at a time, whichever order they are started in', async () => {
    await database.db.execute(sql`create table if not exists tally (n int not null)`);
    await database.db.execute(sql`insert into tally values (0)`);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        database.db.transaction(async (tx) => {
          const [row] = await queryRows<{ n: number }>(tx, sql`select n from tally`);
          await tx.execute(sql`update tally set n = ${(row?.n ?? 0) + 1}`);
        }),
      ),
    );
    expect((await queryRows<{ n: number }>(database.db, sql`select n from tally`))[0]?.n).toBe(10);
  });
});
