import { SOCKET_EVENTS } from '@porpoise/core';
import { everySignedIn } from '../policies/audience.ts';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, registerUser, type TestUser } from '../test/factories.ts';
import { connected, nextEvent, openSocket, pause, recordAll, until } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';
import { forum, porpchatMessage, summary, thread } from '../test/payloads.ts';

describe.each(DATABASE_KINDS)('the socket on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];
  const open = (headers: Record<string, string> = {}) => {
    const socket = openSocket(t.url, headers);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => t.close());

  it('lets an anonymous visitor connect, and keeps signed-in events from it', async () => {
    const anonymous = open();
    const signedIn = open({ cookie: alice.cookie });
    await Promise.all([connected(anonymous), connected(signedIn)]);
    const anonymousSeen = recordAll(anonymous);
    const received = nextEvent(signedIn, SOCKET_EVENTS.forumUpdate);
    t.app.realtime.emit(everySignedIn, SOCKET_EVENTS.forumUpdate, forum('1'));
    expect(await received).toEqual(forum('1'));
    await pause(200);
    expect(anonymousSeen).toEqual([]);
  });

  it('delivers PorpChat events to anonymous and signed-in sockets alike', async () => {
    const anonymous = open();
    const signedIn = open({ cookie: bob.cookie });
    await Promise.all([connected(anonymous), connected(signedIn)]);
    const both = Promise.all([
      nextEvent(anonymous, SOCKET_EVENTS.messageUpdate),
      nextEvent(signedIn, SOCKET_EVENTS.messageUpdate),
    ]);
    t.app.realtime.emit({ to: 'porpchat' }, SOCKET_EVENTS.messageUpdate, porpchatMessage('hi'));
    expect(await both).toEqual([porpchatMessage('hi'), porpchatMessage('hi')]);
  });

  it("puts each signed-in socket in its own user's room only", async () => {
    const aliceTab1 = open({ cookie: alice.cookie });
    const aliceTab2 = open({ cookie: alice.cookie });
    const bobSocket = open({ cookie: bob.cookie });
    await Promise.all([connected(aliceTab1), connected(aliceTab2), connected(bobSocket)]);
    const bobSeen = recordAll(bobSocket);
    const toAlice = Promise.all([
      nextEvent(aliceTab1, SOCKET_EVENTS.threadUpdate),
      nextEvent(aliceTab2, SOCKET_EVENTS.threadUpdate),
    ]);
    t.app.realtime.emit(
      { to: 'accounts', accountIds: [await accountIdOf(t.app, alice.username)] },
      SOCKET_EVENTS.threadUpdate,
      thread('9'),
    );
    expect(await toAlice).toEqual([thread('9'), thread('9')]);
    await pause(200);
    expect(bobSeen).toEqual([]);
  });

  it('refuses a handshake from a foreign Origin even with a valid cookie', async () => {
    const foreign = open({ cookie: alice.cookie, origin: 'https://evil.example' });
    await expect(connected(foreign)).rejects.toThrow();
    expect(foreign.connected).toBe(false);
  });

  it('accepts a handshake from its own Origin', async () => {
    const own = open({ cookie: alice.cookie, origin: t.url });
    await connected(own);
    expect(own.connected).toBe(true);
  });

  it("disconnects a session's sockets when it signs out, and only those", async () => {
    const carol = await registerUser(t.app);
    const carolSocket = open({ cookie: carol.cookie });
    const bobSocket = open({ cookie: bob.cookie });
    await Promise.all([connected(carolSocket), connected(bobSocket)]);
    const gone = new Promise<string>((resolve) => carolSocket.once('disconnect', (reason) => resolve(reason)));
    await t.app.inject({ method: 'POST', url: '/api/account/logout', headers: { cookie: carol.cookie } });
    expect(await gone).toBe('io server disconnect');
    await pause(100);
    expect(bobSocket.connected).toBe(true);
  });
});

describe('several processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    one = await startTestApp('postgres', { databaseUrl: database.url });
    two = await startTestApp('postgres', { databaseUrl: database.url });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await database.drop();
  });

  it('carries an event emitted on one process to a socket on the other', async () => {
    const user = await registerUser(one.app);
    const socket = openSocket(two.url, { cookie: user.cookie });
    try {
      await connected(socket);
      const received = nextEvent(socket, SOCKET_EVENTS.questionUpdate);
      one.app.realtime.emit(everySignedIn, SOCKET_EVENTS.questionUpdate, summary('42'));
      expect(await received).toEqual(summary('42'));
    } finally {
      socket.disconnect();
    }
  });

  it('accepts a session made on one process on the other', async () => {
    const user = await registerUser(one.app);
    const response = await two.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: user.cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ username: user.username });
  });
});

/** What the adapter publishes for the default namespace, heard as another process would. */
async function listenToAdapter(url: string) {
  const published: Array<{ type: number }> = [];
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  listener.on('notification', ({ payload }) => published.push(JSON.parse(payload ?? '{}') as { type: number }));
  await listener.query('listen "socket.io#/"');
  // socket.io-adapter's message types: 1 and 2 are heartbeats, 3 a broadcast.
  const BROADCAST = 3;
  const [{ pid }] = (await listener.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
  return {
    pid,
    broadcasts: () => published.filter((message) => message.type === BROADCAST).length,
    end: () => listener.end(),
  };
}

const serverCount = (app: TestApp) => app.app.realtime.io.of('/').adapter.serverCount();

// Heartbeats every 500 ms: a process alone knows it after 1 s of silence (short enough for
// a test, long enough that a busy machine's late heartbeat does not drop a peer).
const HEARTBEAT_MS = 500;
const startWithShortHeartbeat = (databaseUrl: string) =>
  startTestApp('postgres', { databaseUrl, configure: (config) => void (config.realtimeHeartbeatMs = HEARTBEAT_MS) });

describe('a lone process on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let adapterChannel: Awaited<ReturnType<typeof listenToAdapter>>;
  const apps: TestApp[] = [];
  const sockets: Socket[] = [];
  const open = (app: TestApp, cookie: string) => {
    const socket = openSocket(app.url, { cookie });
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    database = await createPostgresDatabase();
    apps.push(await startWithShortHeartbeat(database.url));
    adapterChannel = await listenToAdapter(database.url);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await adapterChannel.end();
    for (const app of apps) await app.close();
    await database.drop();
  });

  it('keeps its broadcasts local while no other process exists, and publishes them once one does', async () => {
    const [one] = apps as [TestApp];
    const user = await registerUser(one.app);
    const local = open(one, user.cookie);
    await connected(local);
    await pause(3 * HEARTBEAT_MS);
    const heard = nextEvent(local, SOCKET_EVENTS.questionUpdate);
    one.app.realtime.emit(everySignedIn, SOCKET_EVENTS.questionUpdate, summary('1'));
    expect(await heard).toEqual(summary('1'));
    await pause(200);
    expect(adapterChannel.broadcasts()).toBe(0);

    // A second process: each comes to know the other.
    const two = await startWithShortHeartbeat(database.url);
    apps.push(two);
    for (const app of [two, one]) {
      await until(async () => (await serverCount(app)) === 2, 5_000);
      expect(await serverCount(app)).toBe(2);
    }
    const remote = open(two, user.cookie);
    await connected(remote);
    const both = Promise.all([
      nextEvent(local, SOCKET_EVENTS.questionUpdate),
      nextEvent(remote, SOCKET_EVENTS.questionUpdate),
    ]);
    one.app.realtime.emit(everySignedIn, SOCKET_EVENTS.questionUpdate, summary('2'));
    expect(await both).toEqual([summary('2'), summary('2')]);
    // The listener hears the NOTIFY on its own connection, maybe after the other process did.
    await until(() => adapterChannel.broadcasts() > 0, 2_000);
    expect(adapterChannel.broadcasts()).toBe(1);
  });
});

describe('a process that has just started on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let adapterChannel: Awaited<ReturnType<typeof listenToAdapter>>;
  let t: TestApp;
  let socket: Socket | undefined;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    adapterChannel = await listenToAdapter(database.url);
    // The default heartbeat (5 s): it cannot yet know that it is alone for 10 s.
    t = await startTestApp('postgres', { databaseUrl: database.url });
  });
  afterAll(async () => {
    socket?.disconnect();
    await adapterChannel.end();
    await t.close();
    await database.drop();
  });

  it('publishes its broadcasts while another process it has not heard yet may exist', async () => {
    expect(await serverCount(t)).toBe(1);
    const user = await registerUser(t.app);
    socket = openSocket(t.url, { cookie: user.cookie });
    await connected(socket);
    const heard = nextEvent(socket, SOCKET_EVENTS.questionUpdate);
    t.app.realtime.emit(everySignedIn, SOCKET_EVENTS.questionUpdate, summary('1'));
    expect(await heard).toEqual(summary('1'));
    await until(() => adapterChannel.broadcasts() > 0, 2_000);
    expect(adapterChannel.broadcasts()).toBe(1);
  });
});

describe('a lone process whose listening connection to PostgreSQL was lost', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let adapterChannel: Awaited<ReturnType<typeof listenToAdapter>>;
  let admin: pg.Client;
  let t: TestApp;
  let socket: Socket | undefined;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    t = await startWithShortHeartbeat(database.url);
    adapterChannel = await listenToAdapter(database.url);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    socket?.disconnect();
    await admin.end();
    await adapterChannel.end();
    await t.close();
    await database.drop();
  });

  /** The server's LISTEN connections (the test's own listener is not the server's). */
  const serverListeners = async (exceptPid: number) =>
    (
      await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%' and pid <> $1`,
        [exceptPid],
      )
    ).rows.map((row) => row.pid);

  it('publishes again until it has listened a whole heartbeat timeout on its new connection', async () => {
    const user = await registerUser(t.app);
    socket = openSocket(t.url, { cookie: user.cookie });
    await connected(socket);
    const send = async (id: string) => {
      const heard = nextEvent(socket!, SOCKET_EVENTS.questionUpdate);
      t.app.realtime.emit(everySignedIn, SOCKET_EVENTS.questionUpdate, summary(id));
      expect(await heard).toEqual(summary(id));
    };
    await pause(3 * HEARTBEAT_MS);
    await send('1');
    await pause(200);
    expect(adapterChannel.broadcasts()).toBe(0);

    const testListener = adapterChannel.pid;
    const [lost] = await serverListeners(testListener);
    expect(lost).toBeDefined();
    await admin.query('select pg_terminate_backend($1)', [lost]);
    const reconnected = async () => (await serverListeners(testListener)).filter((pid) => pid !== lost);
    await until(async () => (await reconnected()).length > 0, 10_000);
    expect(await reconnected()).toHaveLength(1);
    await pause(100);
    await send('2');
    await until(() => adapterChannel.broadcasts() > 0, 2_000);
    expect(adapterChannel.broadcasts()).toBe(1);
  });
});
