// Issue 15, item 10: a process whose LISTEN connection (cache/signals.ts) is lost, loudly (its
// backend terminated) or silently (a link that drops packets without a word), turns its read
// caches off until the connection is back, so a change another process makes meanwhile is
// never served stale; then it reconnects and caches again.
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createPostgresDatabase, createTestDatabase } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/**
 * A TCP proxy to PostgreSQL that can cut the signal connection: `freezeSignals` stops
 * forwarding its bytes both ways while both sockets stay open (a dead link nobody reports);
 * `holdNew` keeps new connections waiting, unanswered, until `releaseNew`.
 */
async function startProxy(target: URL) {
  const pairs: Array<{ client: net.Socket; server: net.Socket; signals: boolean }> = [];
  const held: net.Socket[] = [];
  let holding = false;
  const connectPair = (client: net.Socket) => {
    const server = net.connect(Number(target.port || 5432), target.hostname);
    const pair = { client, server, signals: false };
    pairs.push(pair);
    // The signal connection is the one that sends `listen porpoise_content`.
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('listen porpoise_content')) pair.signals = true;
    });
    client.pipe(server);
    server.pipe(client);
    const close = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', close).on('close', close);
    server.on('error', close).on('close', close);
  };
  const proxy = net.createServer((client) => {
    if (holding) held.push(client.on('error', () => undefined));
    else connectPair(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    signalPairs: () => pairs.filter((pair) => pair.signals && !pair.client.destroyed),
    freezeSignals() {
      for (const { client, server } of this.signalPairs()) {
        client.unpipe(server);
        server.unpipe(client);
        client.pause();
        server.pause();
      }
    },
    holdNew: () => (holding = true),
    releaseNew() {
      holding = false;
      for (const client of held.splice(0)) client.destroy();
    },
    close() {
      for (const { client, server } of pairs) {
        client.destroy();
        server.destroy();
      }
      for (const client of held) client.destroy();
      proxy.close();
    },
  };
}

/**
 * The content signals a process's caches hear: null (forget everything: the connection was
 * lost, or is back) or a change. `reaches` resolves true once `count()` reaches n, false
 * when nothing more comes within `withinMs`.
 */
function watchSignals(app: FastifyInstance) {
  let forgets = 0;
  let changes = 0;
  const waiters: Array<() => void> = [];
  app.signals.subscribe('porpoise_content', (payload) => {
    if (payload === null) forgets += 1;
    else changes += 1;
    for (const wake of waiters.splice(0)) wake();
  });
  const reaches = (count: () => number, n: number, withinMs = 20_000): Promise<boolean> => {
    const deadline = Date.now() + withinMs;
    return new Promise((resolve) => {
      const check = () => {
        if (count() >= n) return resolve(true);
        if (Date.now() >= deadline) return resolve(false);
        waiters.push(check);
        setTimeout(check, deadline - Date.now()).unref();
      };
      check();
    });
  };
  return { forgets: () => forgets, changes: () => changes, reaches };
}

describe('a process whose signal connection to PostgreSQL is lost', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let admin: pg.Client;
  let signals: ReturnType<typeof watchSignals>;
  /** The process under test: its signal connection goes through the proxy. */
  let app: FastifyInstance;
  /** Another process on the same database, making changes. */
  let other: TestApp;
  let reader: TestUser;
  let writer: TestUser;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    proxy = await startProxy(new URL(database.url));
    const direct = await createTestDatabase('postgres', database.url);
    app = await buildApp({
      config: loadConfig({ RATE_LIMIT_MULTIPLIER: '1000', LOG_LEVEL: 'info' }),
      // Queries go straight to PostgreSQL; the signal connection (and socket.io's) through the proxy.
      database: { ...direct, url: proxy.url },
      logger: false,
    });
    signals = watchSignals(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    other = await startTestApp('postgres', { databaseUrl: database.url });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    reader = await registerUser(app);
    writer = await registerUser(other.app);
  });
  afterAll(async () => {
    proxy.releaseNew();
    await app.close();
    await other.close();
    await admin.end();
    proxy.close();
    await database.drop();
  });

  const titles = async () =>
    (await app.inject({ url: '/api/getQuestion?order=newest&limit=100', headers: { cookie: reader.cookie } }))
      .json<Array<{ title: string }>>()
      .map((question) => question.title);

  /** Another process asks a question, and this one hears of it. */
  async function askElsewhere(title: string) {
    const heard = signals.changes() + 1;
    await askQuestion(other.app, writer, { title });
    expect(await signals.reaches(signals.changes, heard)).toBe(true);
  }

  /** The list shows `title` and is cached: a second read loads nothing. */
  async function expectCachedWith(title: string) {
    const { lists } = app.contentCache;
    expect(await titles()).toContain(title);
    const loads = lists.loads;
    expect(await titles()).toContain(title);
    expect(lists.loads).toBe(loads);
    expect(lists.size).toBeGreaterThan(0);
  }

  async function expectCutOffThenBack(cut: () => Promise<void>, title: string) {
    const forgotten = signals.forgets();
    proxy.holdNew();
    await cut();
    // The loss is noticed (the caches are told to forget)...
    expect(await signals.reaches(signals.forgets, forgotten + 1)).toBe(true);
    expect(app.signals.listening).toBe(false);
    // ...and a change another process makes meanwhile shows at once: nothing is cached.
    await askQuestion(other.app, writer, { title });
    expect(await titles()).toContain(title);
    expect(await titles()).toContain(title);
    expect(app.contentCache.lists.size).toBe(0);
    // Once it listens again (and forgets again), it caches again.
    proxy.releaseNew();
    expect(await signals.reaches(signals.forgets, forgotten + 2)).toBe(true);
    expect(app.signals.listening).toBe(true);
    await expectCachedWith(title);
  }

  it('turns its caches off when the connection is terminated, until it is back', { timeout: 60_000 }, async () => {
    await askElsewhere('before the loss');
    await expectCachedWith('before the loss');
    await expectCutOffThenBack(async () => {
      const [pair] = proxy.signalPairs();
      const { rows } = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = current_database() and client_port = $1',
        [pair?.server.localPort],
      );
      expect(rows).toHaveLength(1);
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    }, 'asked while the connection was terminated');
  });

  it('notices a link that died without a word (heartbeat), and does the same', { timeout: 60_000 }, async () => {
    await expectCachedWith('asked while the connection was terminated');
    await expectCutOffThenBack(async () => {
      expect(proxy.signalPairs()).toHaveLength(1);
      proxy.freezeSignals();
    }, 'asked while the link was silent');
  });
});
