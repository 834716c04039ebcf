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

  it('groups commits: the writes waiting while a transaction runs are answered after one WAL flush', async () => {
    await database.db.execute(sql`create table if not exists grouped (n int not null)`);
    const before = database.flushCounts!();
    const waiting: Array<Promise<unknown>> = [];
    let reads = 0;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into grouped values (0)`);
      // Sent while the transaction holds the database (queryRows runs drizzle's lazy query at
      // once): they wait in line behind it.
      for (let n = 1; n <= 40; n++) waiting.push(queryRows(database.db, sql`insert into grouped values (${n})`));
      // A write inside a CTE is a write; a read is answered without waiting for a flush.
      waiting.push(
        queryRows(database.db, sql`with added as (insert into grouped values (41) returning n) select n from added`),
      );
      waiting.push(queryRows(database.db, sql`select count(*) from grouped`).then(() => (reads += 1)));
      // A round trip in the transaction: all of the above are sent before it ends.
      await tx.execute(sql`select 1`);
    });
    await Promise.all(waiting);
    const after = database.flushCounts!();
    expect(reads).toBe(1);
    // The transaction's commit and the 41 lone writes: one fsync for all of them.
    expect(after.writes - before.writes).toBe(42);
    expect(after.flushes - before.flushes).toBe(1);
    // Flushed: nothing written is still only in memory.
    const [lsn] = await queryRows<{ flushed: boolean }>(
      database.db,
      sql`select pg_current_wal_flush_lsn() >= pg_current_wal_insert_lsn() as flushed`,
    );
    expect(lsn?.flushed).toBe(true);
    expect((await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from grouped`))[0]?.n).toBe(42);
  });

  it('answers a lone write only once its commit is flushed to the WAL on disk', async () => {
    await database.db.execute(sql`create table if not exists lone (n int not null)`);
    const before = database.flushCounts!();
    await database.db.execute(sql`insert into lone values (1)`);
    const after = database.flushCounts!();
    expect(after).toEqual({ flushes: before.flushes + 1, writes: before.writes + 1 });
    const [row] = await queryRows<{ synchronous_commit: string }>(database.db, sql`show synchronous_commit`);
    expect(row?.synchronous_commit).toBe('off');
  });
});
