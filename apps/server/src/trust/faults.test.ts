// Trust cases 27, 28 and 29: a kill -9 loses no acknowledged write and leaves none half
// written; SIGTERM finishes requests in flight and exits cleanly; a PostgreSQL restart
// under the running server gives 503s, not crashes, and the server recovers by itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type DatabaseKind } from '../test/databases.ts';
import { registerUser, uniqueName } from '../test/factories.ts';
import { startServerProcess } from '../test/server-process.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

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

const ask = (url: string, cookie: string, title: string) =>
  fetch(`${url}/api/addQuestion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ title, text: 'durability check', tags: [{ name: 'durable' }, { name: 'second' }] }),
  });

describe.each<DatabaseKind>(['pglite', 'postgres'])('durability on %s', (kind) => {
  let env: NodeJS.ProcessEnv;
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const database = await createPostgresDatabase();
      env = { DATABASE_URL: database.url };
      drop = database.drop;
    } else {
      env = { DATABASE_URL: '', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-durable-')) };
    }
  });
  afterAll(async () => drop());

  it('keeps every acknowledged write through kill -9, and none half written', async () => {
    const first = await startServerProcess(env);
    const cookie = await signUp(first.url);
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let i = 0; !stop; i++) {
        const title = `durable ${writer}-${i}`;
        try {
          if ((await ask(first.url, cookie, title)).ok) acknowledged.push(title);
        } catch {
          return; // the server died mid-request: that write was never acknowledged
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.exited;
    expect(acknowledged.length).toBeGreaterThan(5);

    const second = await startServerProcess(env);
    try {
      const response = await fetch(`${second.url}/api/getQuestion?tag=durable&limit=100`, { headers: { cookie } });
      const total = Number(response.headers.get('x-total-count'));
      const stored: Array<{ title: string; tags: unknown[] }> = [];
      for (let offset = 0; offset < total; offset += 100) {
        const page = await fetch(`${second.url}/api/getQuestion?tag=durable&limit=100&offset=${offset}`, {
          headers: { cookie },
        });
        stored.push(...((await page.json()) as Array<{ title: string; tags: unknown[] }>));
      }
      const titles = new Set(stored.map((q) => q.title));
      expect(acknowledged.filter((title) => !titles.has(title))).toEqual([]);
      // Whole or nothing: every stored question has both of its tags.
      expect(stored.filter((q) => q.tags.length !== 2)).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });

  it('finishes requests in flight on SIGTERM, refuses new ones and exits cleanly within 10 s', async () => {
    const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
    // Registrations hash a password, so each takes a while: a good request to be in flight.
    const inFlight = Array.from({ length: 8 }, () =>
      signUp(server.url).then(
        () => 'ok',
        (error: Error) => error.message,
      ),
    );
    // SIGTERM once the server has received all eight (each logs 'incoming request').
    const arrived = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('incoming request') && line.includes('addAccount')).length;
    for (let waited = 0; arrived() < 8 && waited < 5_000; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(arrived()).toBe(8);
    const started = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(0);
    expect(await Promise.all(inFlight)).toEqual(Array(8).fill('ok'));
    await expect(fetch(`${server.url}/api/healthz`)).rejects.toThrow();
  });
});

describe('a PostgreSQL restart under the running server', () => {
  const bin = '/usr/lib/postgresql/15/bin';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-pg-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const asPostgres = (command: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', `${bin}/${command}`, ...args], { stdio: 'pipe' });
  const pgStart = () =>
    asPostgres('pg_ctl', [
      '-D',
      `${dir}/data`,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
      '-w',
      'start',
      '-l',
      `${dir}/log`,
    ]);
  const pgStop = () => asPostgres('pg_ctl', ['-D', `${dir}/data`, '-m', 'fast', '-w', 'stop']);
  let t: TestApp;

  beforeAll(async () => {
    fs.chmodSync(dir, 0o777);
    asPostgres('initdb', ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust']);
    pgStart();
    t = await startTestApp('postgres', { databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres` });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    try {
      pgStop();
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while PostgreSQL is down, tells the truth in readyz, and recovers without a restart', async () => {
    const user = await registerUser(t.app);
    const me = () => t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: user.cookie } });
    expect((await me()).statusCode).toBe(200);
    expect((await t.app.inject('/api/readyz')).statusCode).toBe(200);

    pgStop();
    const down = await me();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ error: 'Service temporarily unavailable' });
    expect((await t.app.inject('/api/readyz')).statusCode).toBe(503);
    expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);

    pgStart();
    let recovered = 0;
    for (let attempt = 0; attempt < 50 && recovered !== 200; attempt++) {
      recovered = (await me()).statusCode;
      if (recovered !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(recovered).toBe(200);
    expect((await t.app.inject('/api/readyz')).statusCode).toBe(200);
  });
});
