// A backup taken while members write (docs/product.md section 15), of a real server process:
// on PostgreSQL pg_dump's snapshot, on the embedded database the server's own (`npm run
// backup` asks the server that owns DATA_DIR). Restored into the other database, it holds
// every write acknowledged before its snapshot, none after, no gaps, and counts that match.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase, queryRows } from '../db/client.ts';
import { createPostgresDatabase, type DatabaseKind } from '../test/databases.ts';
import { uniqueName } from '../test/factories.ts';
import { startServerProcess } from '../test/server-process.ts';
import { backupConfigured, restoreConfigured } from './run.ts';

interface Writer {
  username: string;
  cookie: string;
  acknowledged: { id: number; at: number }[];
}

async function register(url: string): Promise<Writer> {
  const username = uniqueName('writer');
  const response = await fetch(`${url}/api/account/addAccount`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      password: 'writer-password',
      createdAt: new Date().toISOString(),
    }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('porpoise_session='));
  return { username, cookie: cookie!.split(';')[0]!, acknowledged: [] };
}

/** Asks questions one after another until `stop()` says so; records each acknowledged one and when. */
async function write(url: string, writer: Writer, stop: () => boolean, onWrite: () => void): Promise<void> {
  while (!stop()) {
    const response = await fetch(`${url}/api/addQuestion`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: writer.cookie },
      body: JSON.stringify({
        title: `Written under a backup ${writer.acknowledged.length + 1}`,
        text: 'Is it in the backup?',
        tags: [{ name: 'load', description: '' }],
        askedBy: writer.username,
      }),
    });
    const body = (await response.json()) as { _id: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    writer.acknowledged.push({ id: Number(body._id), at: Date.now() });
    onWrite();
  }
}

const SOURCES: [DatabaseKind, DatabaseKind][] = [
  ['pglite', 'postgres'],
  ['postgres', 'pglite'],
];

describe.each(SOURCES)('a backup of %s under writes, restored into %s', (from, to) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-backup-load-'));
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds every write acknowledged before its snapshot and none after, and its counts match its rows', async () => {
    const sourceData = path.join(dir, 'source');
    const source = await createPostgresDatabase();
    drops.push(source.drop);
    const server = await startServerProcess({
      DATA_DIR: sourceData,
      ...(from === 'postgres' ? { DATABASE_URL: source.url } : {}),
    });
    const file = path.join(dir, 'load.porpoise-backup');
    let writers: Writer[];
    try {
      writers = [];
      for (let i = 0; i < 4; i++) writers.push(await register(server.url));
      let stopped = false;
      // Checked at each acknowledgement: resolves once `done` holds.
      const waiting = new Set<() => void>();
      const until = (done: () => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (!done()) return;
            waiting.delete(check);
            resolve();
          };
          waiting.add(check);
          check();
        });
      const onWrite = () => {
        for (const check of waiting) check();
      };
      const writing = writers.map((writer) => write(server.url, writer, () => stopped, onWrite));
      const written = (n: number) => writers.every((writer) => writer.acknowledged.length >= n);
      await until(() => written(5));
      const config = loadConfig({ DATA_DIR: sourceData });
      config.databaseUrl = from === 'postgres' ? source.url : undefined;
      await backupConfigured(config, file);
      const after = writers.map((writer) => writer.acknowledged.length);
      await until(() => writers.every((writer, i) => writer.acknowledged.length >= after[i]! + 3));
      stopped = true;
      await Promise.all(writing);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }

    const target = await createPostgresDatabase();
    drops.push(target.drop);
    const targetConfig = loadConfig({
      DATA_DIR: path.join(dir, 'target'),
      UPLOADS_DIR: path.join(dir, 'target-uploads'),
    });
    targetConfig.databaseUrl = to === 'postgres' ? target.url : undefined;
    const { header } = await restoreConfigured(targetConfig, file, { force: false });
    const snapshotAt = Date.parse(header.snapshotAt);
    const database = await openDatabase(
      to === 'postgres'
        ? { kind: 'postgres', url: target.url, migrationsDir: targetConfig.migrationsDir }
        : { kind: 'pglite', dataDir: targetConfig.dataDir, migrationsDir: targetConfig.migrationsDir },
    );
    try {
      for (const writer of writers) {
        const rows = await queryRows<{ id: number }>(
          database.db,
          sql`select q.id::int as id from questions q join accounts a on a.id = q.asked_by
              where a.username = ${writer.username} order by q.id`,
        );
        const present = rows.map((row) => row.id);
        const acknowledged = writer.acknowledged.map((write) => write.id);
        // No gaps: what the backup holds of a writer is the start of what it wrote.
        expect(present).toEqual(acknowledged.slice(0, present.length));
        const before = writer.acknowledged.filter((write) => write.at < snapshotAt).length;
        expect(present.length).toBeGreaterThanOrEqual(before);
        // The writes after the backup returned are not in it.
        expect(present.length).toBeLessThan(acknowledged.length);
      }
      const [counts] = await queryRows<{ questions: number; counted: number; tagged: number; tagCount: number }>(
        database.db,
        sql`select (select count(*)::int from questions) as questions,
                   (select total::int from question_counters) as counted,
                   (select count(*)::int from question_tags qt join tags t on t.id = qt.tag_id where t.name = 'load') as tagged,
                   (select question_count::int from tags where name = 'load') as "tagCount"`,
      );
      expect(counts!.counted).toBe(counts!.questions);
      expect(counts!.tagCount).toBe(counts!.tagged);
      expect(counts!.questions).toBe(header.tables.find((table) => table.name === 'questions')!.rows);
    } finally {
      await database.close();
    }
  }, 180_000);
});
