// Issue 15, item 6: the embedded database runs with fsync on (db/durable-node-fs.test.ts shows
// its commits reach the disk); if its thread dies, the server restarts it, or exits so that a
// supervisor restarts the server, never answering 500s for ever.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../db/client.ts';
import { createTestDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { uniqueName } from '../test/factories.ts';
import { startServerProcess, type ServerProcess } from '../test/server-process.ts';

const workerTerminator = fileURLToPath(new URL('../test/worker-terminator.ts', import.meta.url));

describe.each(DATABASE_KINDS)('durability settings on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => database.close());

  it('runs with fsync on', async () => {
    const [row] = await queryRows<{ fsync: string }>(database.db, sql`show fsync`);
    expect(row?.fsync).toBe('on');
  });
});

/**
 * Resolves true when `text` has appeared `times` times in the server's output, false if the
 * server exits first or nothing comes within `withinMs` (the test then fails, not hangs).
 */
function outputReaches(server: ServerProcess, text: string, times = 1, withinMs = 60_000): Promise<boolean> {
  const count = () => server.output().split(text).length - 1;
  return new Promise((resolve) => {
    const done = (reached: boolean) => {
      clearTimeout(timer);
      server.child.stdout?.off('data', check);
      server.child.stderr?.off('data', check);
      server.child.off('exit', check);
      resolve(reached);
    };
    const check = () => {
      if (count() >= times) done(true);
      else if (server.child.exitCode !== null) done(false);
    };
    const timer = setTimeout(() => done(false), withinMs);
    server.child.stdout?.on('data', check);
    server.child.stderr?.on('data', check);
    server.child.on('exit', check);
    check();
  });
}

async function signUp(url: string): Promise<string> {
  const username = uniqueName();
  const response = await fetch(`${url}/api/account/addAccount`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'secret1' }),
  });
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (!response.ok || !cookie) throw new Error(`sign-up failed: ${response.status}`);
  return cookie;
}

/** How many times the server loaded a list page from the database (its read cache's misses). */
async function listLoads(url: string): Promise<number> {
  const series = 'porpoise_read_cache_misses_total{cache="lists"} ';
  const line = (await (await fetch(`${url}/api/metrics`)).text()).split('\n').find((row) => row.startsWith(series));
  return Number(line?.slice(series.length));
}

const ask = (url: string, cookie: string, title: string) =>
  fetch(`${url}/api/addQuestion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ title, text: 'kept through a restart', tags: [{ name: 'restart' }] }),
  });

describe('when the embedded database thread dies', () => {
  it('the server restarts it: the data is there and writes succeed again', { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-thread-'));
    const server = await startServerProcess({ DATABASE_URL: '', DATA_DIR: dataDir }, { imports: [workerTerminator] });
    try {
      const cookie = await signUp(server.url);
      expect((await ask(server.url, cookie, 'before the crash')).status).toBe(200);
      // The home list, read twice: loaded once, then answered from memory.
      const home = () => fetch(`${server.url}/api/getQuestion?order=newest`, { headers: { cookie } });
      expect((await home()).status).toBe(200);
      expect((await home()).status).toBe(200);
      const listsLoaded = await listLoads(server.url);

      server.child.kill('SIGUSR2'); // worker-terminator.ts terminates the database thread
      expect(await outputReaches(server, 'the embedded database thread restarted')).toBe(true);
      expect(server.output()).toContain('the embedded database thread stopped');
      // What was read before may hold commits the thread lost (reads see commits before
      // their flush): the page is loaded again from the restarted database.
      expect((await home()).status).toBe(200);
      expect(await listLoads(server.url)).toBe(listsLoaded + 1);

      expect((await fetch(`${server.url}/api/readyz`)).status).toBe(200);
      expect((await ask(server.url, cookie, 'after the restart')).status).toBe(200);
      const listed = (await (
        await fetch(`${server.url}/api/getQuestion?tag=restart`, { headers: { cookie } })
      ).json()) as Array<{ title: string }>;
      expect(listed.map((q) => q.title).sort()).toEqual(['after the restart', 'before the crash']);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it(
    'the server exits non-zero when it may not restart it, for a supervisor to restart the server',
    { timeout: 120_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-thread-'));
      const server = await startServerProcess(
        { DATABASE_URL: '', DATA_DIR: dataDir, PGLITE_RESTARTS: '0' },
        { imports: [workerTerminator] },
      );
      try {
        server.child.kill('SIGUSR2');
        expect(await outputReaches(server, 'cannot be restarted: exiting')).toBe(true);
        expect(await server.exited).toBe(1);
      } finally {
        server.child.kill('SIGKILL');
      }
    },
  );
});
