import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** Grouped commits around a close and a snapshot, on disk. */
describe('PGlite on its own thread, on disk', () => {
  const migrationsDir = loadConfig({}).migrationsDir;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-thread-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  /** Resolves once `condition` holds (checked every 5 ms); fails after 20 s. */
  const until = async (condition: () => boolean) => {
    const deadline = Date.now() + 20_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('waited 20 s in vain');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  /** Whether any file (not a directory: the copy makes those first) is in `dir` yet. */
  const anyFileIn = (dir: string) =>
    fs.existsSync(dir) && fs.readdirSync(dir, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile());
  /** Every file of `source` is in `target` with its size (the snapshot's first copy is done). */
  const sameFiles = (source: string, target: string) =>
    fs
      .readdirSync(source, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith('postmaster.'))
      .every((entry) => {
        const relative = path.relative(source, path.join(entry.parentPath, entry.name));
        const original = fs.statSync(path.join(source, relative), { throwIfNoEntry: false });
        const copied = fs.statSync(path.join(target, relative), { throwIfNoEntry: false });
        return original === undefined || copied?.size === original.size;
      });
  const countIn = async (dataDir: string, table: string) => {
    const reopened = await openDatabase({ kind: 'pglite', dataDir, migrationsDir });
    try {
      return (
        await queryRows<{ n: number }>(reopened.db, sql`select count(*)::int as n from ${sql.identifier(table)}`)
      )[0]?.n;
    } finally {
      await reopened.close();
    }
  };

  it('answers and keeps the writes that commit while a close waits for their transaction', async () => {
    const dataDir = tempDir();
    const database = await openDatabase({ kind: 'pglite', dataDir, migrationsDir });
    await database.db.execute(sql`create table before_close (n int not null)`);
    const lone: Array<Promise<unknown>> = [];
    let closed: Promise<void> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into before_close values (0)`);
      // Both wait behind the open transaction: the lone writes first (sent before the round
      // trip below), then the close; the transaction's own statements still run.
      for (let n = 1; n <= 5; n++) lone.push(queryRows(database.db, sql`insert into before_close values (${n})`));
      await tx.execute(sql`select 1`);
      closed = database.close();
      await tx.execute(sql`insert into before_close values (6)`);
    });
    // The commit above was answered; so are the lone writes, as written, not failed.
    await expect(Promise.all(lone)).resolves.toHaveLength(5);
    await closed;
    // A closed database answers nothing more: a query fails rather than waits.
    await expect(queryRows(database.db, sql`select 1`)).rejects.toThrow();
    expect(await countIn(dataDir, 'before_close')).toBe(7);
  });

  it('copies into a snapshot a commit made between its checkpoint and its last copy', async () => {
    const dataDir = tempDir();
    const database = await openDatabase({ kind: 'pglite', dataDir, migrationsDir });
    const copyDir = tempDir();
    try {
      await database.db.execute(sql`create table snapped (n int not null)`);
      await database.db.execute(sql`insert into snapped values (0)`);
      // Some 30 MB more to copy: the first copy outlasts the begin below on a slow machine.
      await database.db.execute(
        sql`create table ballast as select repeat(md5(n::text), 30) as text from generate_series(1, 30000) n`,
      );
      // The snapshot's checkpoint waits for any open transaction; its first copy runs while
      // statements go on, and its last copy waits for an open transaction to end.
      let snapshotDone = false;
      const snapshot = database.snapshotTo!(path.join(copyDir, 'pgdata')).then(() => (snapshotDone = true));
      await until(() => anyFileIn(path.join(copyDir, 'pgdata')));
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into snapped values (1)`);
        // Open until the first copy has every file: the last copy then waits for this commit,
        // and takes the database the moment it is made, before the turn's flush.
        await until(() => sameFiles(path.join(dataDir, 'pgdata'), path.join(copyDir, 'pgdata')));
        expect(snapshotDone).toBe(false);
      });
      await snapshot;
    } finally {
      await database.close();
    }
    // What the commit was answered with is in the copy: it was flushed before the last copy.
    expect(await countIn(copyDir, 'snapped')).toBe(2);
  });
});
