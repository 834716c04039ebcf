// Trust cases 27, 28 and 29: a kill -9 loses no acknowledged write and leaves none half
// written; SIGTERM finishes requests in flight and exits cleanly; a PostgreSQL restart
// under the running server gives 503s, not crashes, and the server recovers by itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createPostgresDatabase, type DatabaseKind } from '../test/databases.ts';
import { registerUser, uniqueName } from '../test/factories.ts';
import { randomTestPort, startServerProcess, type ServerProcess } from '../test/server-process.ts';
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

/**
 * A data directory migrated as a deployed server's is. A fresh one costs a starting server
 * its initdb and migrations (~15 s on a busy 2-core machine, 3 s once made), which would
 * otherwise eat the budget of a test that starts two servers.
 */
async function embeddedEnv(): Promise<NodeJS.ProcessEnv> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-durable-'));
  const database = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: loadConfig({}).migrationsDir });
  await database.close();
  return { DATABASE_URL: '', DATA_DIR: dataDir };
}

describe.each<DatabaseKind>(['pglite', 'postgres'])('durability on %s', (kind) => {
  let env: NodeJS.ProcessEnv;
  let drop: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const database = await createPostgresDatabase();
      env = { DATABASE_URL: database.url };
      drop = database.drop;
    } else {
      env = await embeddedEnv();
    }
  });
  afterAll(async () => drop());

  it('keeps every acknowledged write through kill -9, and none half written', async () => {
    const first = await startServerProcess(env);
    const cookie = await signUp(first.url);
    const acknowledged: string[] = [];
    let stop = false;
    // Killed once writes are flowing: after the 6th acknowledgement, however fast this machine is.
    let flowing = () => {};
    const enough = new Promise<void>((resolve) => (flowing = resolve));
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let i = 0; !stop; i++) {
        const title = `durable ${writer}-${i}`;
        try {
          if ((await ask(first.url, cookie, title)).ok) acknowledged.push(title);
          if (acknowledged.length >= 6) flowing();
        } catch {
          return; // the server died mid-request: that write was never acknowledged
        }
      }
    });
    await enough;
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await first.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(6);

    const second = await startServerProcess(env);
    try {
      const response = await fetch(`${second.url}/api/getQuestion?tag=durable&limit=100`, { headers: { cookie } });
      const total = Number(response.headers.get('x-total-count'));
      const stored: Array<{ title: string; tags: unknown[] }> = [];
      // Deep pages by cursor: offsets stop at 1,000, and a fast server stores more than that.
      let cursor: string | null = null;
      do {
        const after: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page = await fetch(`${second.url}/api/getQuestion?tag=durable&limit=100${after}`, {
          headers: { cookie },
        });
        expect(page.status).toBe(200);
        stored.push(...((await page.json()) as Array<{ title: string; tags: unknown[] }>));
        cursor = page.headers.get('x-next-cursor');
      } while (cursor !== null && stored.length < total);
      expect(stored).toHaveLength(total);
      const titles = new Set(stored.map((q) => q.title));
      expect(acknowledged.filter((title) => !titles.has(title))).toEqual([]);
      // Whole or nothing: every stored question has both of its tags.
      expect(stored.filter((q) => q.tags.length !== 2)).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
    // Two server processes start and a production-cost sign-up runs: on a loaded 2-core
    // machine that alone has taken 20-30 s.
  }, 90_000);

  describe('on SIGTERM', () => {
    let server: ServerProcess;
    // Started before the test, on its own data directory (a server the test above left
    // behind must not hold it).
    beforeAll(async () => {
      server = await startServerProcess({ ...(kind === 'pglite' ? await embeddedEnv() : env), LOG_LEVEL: 'info' });
    });
    afterAll(() => {
      if (server?.child.exitCode === null) server.child.kill('SIGKILL');
    });

    it('finishes requests in flight, refuses new ones and exits cleanly within 10 s', async () => {
      // In flight for as long as the test says: PorpChat posts (open to visitors, so no account
      // and no password hash to wait for) whose bodies are only half sent until after SIGTERM.
      const { port } = new URL(server.url);
      const inFlight = Array.from({ length: 8 }, (_, i) => {
        const body = JSON.stringify({ tid: 'porpchat', msg: { content: `in flight ${i}`, sender: 'visitor' } });
        const request = http.request({
          host: '127.0.0.1',
          port: Number(port),
          method: 'POST',
          path: '/api/message/addMessage',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        });
        const status = new Promise<number | string>((resolve) => {
          request.on('response', (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          });
          request.on('error', (error) => resolve(error.message));
        });
        const half = Math.floor(body.length / 2);
        request.write(body.slice(0, half));
        return { status, finish: () => request.end(body.slice(half)) };
      });
      const lines = (output: string, ...texts: string[]) =>
        output.split('\n').filter((line) => texts.every((text) => line.includes(text)));
      // SIGTERM once the server has all eight (each logs 'incoming request' before its body is read)...
      await server.outputUntil((output) => lines(output, 'incoming request', 'addMessage').length === 8);
      const started = Date.now();
      server.child.kill('SIGTERM');
      // ...and the rest of each body once it has begun shutting down.
      await server.outputUntil((output) => lines(output, 'shutting down').length > 0);
      for (const request of inFlight) request.finish();
      const code = await server.exited;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(code).toBe(0);
      expect(await Promise.all(inFlight.map((request) => request.status))).toEqual(Array(8).fill(200));
      await expect(fetch(`${server.url}/api/healthz`)).rejects.toThrow();
    });
  });
});

describe('a PostgreSQL restart under the running server', () => {
  const bin = '/usr/lib/postgresql/15/bin';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-pg-'));
  const port = randomTestPort();
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
    expect(down.json()).toEqual({ error: 'Service temporarily unavailable', code: expect.any(String) as string });
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
