import {
  MESSAGES,
  READING_COMFORT_DEFAULTS,
  SOCKET_EVENTS,
  type Account,
  type Forum,
  type Message,
  type Thread,
} from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { type Call, callAs, registerUser, type TestUser, uniqueName } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, pause, recordAll } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('profiles, threads, forums and PorpChat on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  const sockets: Socket[] = [];
  const open = (headers: Record<string, string> = {}) => {
    const socket = openSocket(t.url, headers);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob, eve] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const count = async (table: string) =>
    Number((await queryRows<{ n: number }>(t.app.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]?.n);
  const startThread = async (from: TestUser, to: TestUser) => {
    const response = await call(from, 'POST', '/api/thread/addThread', {
      messages: [],
      accounts: [from.username, to.username],
      threadUpdatedDateTime: new Date().toISOString(),
    });
    expect(response.statusCode).toBe(200);
    return response.json<Thread>()._id;
  };
  const send = (user: TestUser | null, tid: string, content: string, sender = user?.username) =>
    call(user, 'POST', '/api/message/addMessage', {
      tid,
      msg: { content, sender, messageDateTime: new Date().toISOString(), views: [sender], likes: [] },
    });

  describe('profiles', () => {
    it('keeps an empty bio for a new account and updates only your own', async () => {
      expect((await call(bob, 'GET', `/api/profile/getBio?username=${alice.username}`)).json()).toMatchObject({
        username: alice.username,
        bio: '',
      });
      const saved = await call(alice, 'PUT', '/api/profile/updateBio', {
        username: alice.username,
        bio: 'I like porpoises.',
      });
      expect(saved.json()).toEqual({ username: alice.username, bio: 'I like porpoises.' });
      const forged = await call(eve, 'PUT', '/api/profile/updateBio', { username: alice.username, bio: 'hacked' });
      expect(forged.statusCode).toBe(403);
      expect((await call(bob, 'GET', `/api/profile/getBio?username=${alice.username}`)).json()).toMatchObject({
        bio: 'I like porpoises.',
      });
      expect(
        (await call(bob, 'PUT', '/api/profile/updateBio', { username: bob.username, bio: 'x'.repeat(1001) })).json(),
      ).toEqual({ error: 'Bio cannot be more than 1000 characters', code: expect.any(String) as string });
      expect((await call(bob, 'GET', '/api/profile/getBio?username=nobody_zz')).statusCode).toBe(404);
    });

    it('saves accessibility settings for your own account only', async () => {
      const settings = { lowVision: true, colorBlindness: 'redgreen' };
      expect((await call(alice, 'GET', '/api/account/me')).json<Account>().accessibilitySettingsSaved).toBe(false);
      const saved = await call(alice, 'POST', '/api/account/saveAccessibilitySettings', {
        ...alice.account,
        accessibilitySettings: settings,
      });
      expect(saved.statusCode).toBe(200);
      // The spec's two; reading comfort's keep their defaults (docs/product.md section 12).
      const stored = { ...settings, ...READING_COMFORT_DEFAULTS };
      expect(saved.json<Account>().accessibilitySettings).toEqual(stored);
      expect((await call(alice, 'GET', '/api/account/me')).json<Account>().accessibilitySettings).toEqual(stored);
      // Saved once, the settings screen opens with them chosen (docs/product.md section 12).
      expect((await call(alice, 'GET', '/api/account/me')).json<Account>().accessibilitySettingsSaved).toBe(true);
      expect((await call(eve, 'GET', '/api/account/me')).json<Account>().accessibilitySettingsSaved).toBe(false);
      const forged = await call(eve, 'POST', '/api/account/saveAccessibilitySettings', {
        ...alice.account,
        accessibilitySettings: { lowVision: false, colorBlindness: 'none' },
      });
      expect(forged.statusCode).toBe(403);
      expect((await call(alice, 'GET', '/api/account/me')).json<Account>().accessibilitySettings).toEqual(stored);
      const bad = await call(alice, 'POST', '/api/account/saveAccessibilitySettings', {
        username: alice.username,
        accessibilitySettings: { lowVision: 'maybe', colorBlindness: 'purple' },
      });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('direct threads', () => {
    it('creates a thread once per pair, and refuses unknown, self and duplicate recipients', async () => {
      const carol = await registerUser(t.app);
      const tid = await startThread(carol, alice);
      const failures = [
        [carol.username, 'nobody_here_zz'],
        [carol.username, carol.username],
        [carol.username, alice.username.toUpperCase()],
      ];
      for (const accounts of failures) {
        const response = await call(carol, 'POST', '/api/thread/addThread', { messages: [], accounts });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: MESSAGES.threadFailed, code: expect.any(String) as string });
      }
      expect(
        (await call(alice, 'POST', '/api/thread/addThread', { accounts: [alice.username, carol.username] })).json(),
      ).toEqual({ error: MESSAGES.threadFailed, code: expect.any(String) as string });
      const threads = (await call(carol, 'GET', `/api/thread/getThreads?username=${carol.username}`)).json<Thread[]>();
      expect(threads.map((x) => x._id)).toEqual([tid]);
      expect(threads[0]!.accounts.sort()).toEqual([alice.username, carol.username].sort());
    });

    it('refuses three accounts with 400 and a thread in another name with 403', async () => {
      const before = await count('threads');
      expect(
        (await call(alice, 'POST', '/api/thread/addThread', { accounts: [alice.username, bob.username, eve.username] }))
          .statusCode,
      ).toBe(400);
      expect(
        (await call(alice, 'POST', '/api/thread/addThread', { accounts: [bob.username, eve.username] })).statusCode,
      ).toBe(403);
      expect(await count('threads')).toBe(before);
    });

    it('tracks unread and read as the spec says, newest thread first', async () => {
      const dave = await registerUser(t.app);
      const first = await startThread(dave, alice);
      const second = await startThread(dave, bob);
      expect((await send(alice, first, 'Hello Dave')).statusCode).toBe(200);
      let threads = (await call(dave, 'GET', '/api/thread/getThreads')).json<Thread[]>();
      expect(threads.map((x) => x._id)).toEqual([first, second]);
      const last = threads[0]!.messages.at(-1)!;
      expect(last).toMatchObject({ content: 'Hello Dave', sender: alice.username, views: [alice.username], likes: [] });
      // Opening the thread marks its last message read.
      const opened = (await call(dave, 'GET', `/api/thread/getThreadById/${first}`)).json<Thread>();
      expect(opened.messages.map((m) => m.content)).toEqual(['Hello Dave']);
      threads = (await call(dave, 'GET', '/api/thread/getThreads')).json<Thread[]>();
      expect(threads[0]!.messages.at(-1)!.views.sort()).toEqual([alice.username, dave.username].sort());
      // So does readMessage, for a message arriving while it is open.
      const reply = (await send(alice, first, 'Still there?')).json<Message>();
      expect(
        (await call(dave, 'POST', '/api/message/readMessage', { mid: reply._id, username: dave.username })).statusCode,
      ).toBe(200);
      const reread = (await call(dave, 'GET', `/api/thread/getThreadById/${first}`)).json<Thread>();
      expect(reread.messages.at(-1)!.views).toContain(dave.username);
    });

    it('keeps a thread private: a third account can neither read, post nor mark read, and nothing is stored', async () => {
      const tid = await startThread(alice, bob);
      const message = (await send(alice, tid, 'secret')).json<Message>();
      const [messages, reads] = [await count('messages'), await count('message_reads')];
      expect((await call(eve, 'GET', `/api/thread/getThreadById/${tid}`)).statusCode).toBe(404);
      expect((await call(eve, 'GET', '/api/thread/getThreadById/999999999')).statusCode).toBe(404);
      expect((await send(eve, tid, 'let me in')).statusCode).toBe(404);
      expect(
        (await call(eve, 'POST', '/api/message/readMessage', { mid: message._id, username: eve.username })).statusCode,
      ).toBe(404);
      expect((await send(alice, tid, 'as bob', bob.username)).statusCode).toBe(403);
      expect((await send(null, tid, 'anonymous')).statusCode).toBe(401);
      expect([await count('messages'), await count('message_reads')]).toEqual([messages, reads]);
      expect((await call(eve, 'GET', '/api/thread/getThreads')).json<Thread[]>().some((x) => x._id === tid)).toBe(
        false,
      );
    });

    it('refuses blank and overlong messages', async () => {
      const tid = await startThread(eve, alice);
      expect((await send(eve, tid, '   ')).json()).toEqual({
        error: MESSAGES.messageEmpty,
        code: expect.any(String) as string,
      });
      expect((await send(eve, tid, 'x'.repeat(2001))).json()).toEqual({
        error: 'Message cannot be more than 2000 characters',
        code: 'invalid_input',
      });
    });

    it('sends threadUpdate and messageUpdate to both participants and nothing to a third socket', async () => {
      const frank = await registerUser(t.app);
      const [aliceSocket, frankSocket, eveSocket] = [
        open({ cookie: alice.cookie }),
        open({ cookie: frank.cookie }),
        open({ cookie: eve.cookie }),
      ];
      await Promise.all([connected(aliceSocket), connected(frankSocket), connected(eveSocket)]);
      const eveSeen = recordAll(eveSocket);
      const created = Promise.all([
        nextEvent<Thread>(aliceSocket, SOCKET_EVENTS.threadUpdate),
        nextEvent<Thread>(frankSocket, SOCKET_EVENTS.threadUpdate),
      ]);
      const tid = await startThread(frank, alice);
      expect((await created).map((x) => x._id)).toEqual([tid, tid]);
      const messaged = Promise.all([
        nextEvent<{ result: { tid: string; message: Message } }>(aliceSocket, SOCKET_EVENTS.messageUpdate),
        nextEvent<{ result: { tid: string; message: Message } }>(frankSocket, SOCKET_EVENTS.messageUpdate),
      ]);
      await send(frank, tid, 'psst');
      for (const event of await messaged)
        expect(event.result).toMatchObject({ tid, message: { content: 'psst', sender: frank.username } });
      await pause(300);
      expect(eveSeen).toEqual([]);
    });
  });

  describe('forums', () => {
    it('creates a forum with its own thread, open to every signed-in user, and announces it', async () => {
      const watcher = open({ cookie: bob.cookie });
      await connected(watcher);
      const announced = nextEvent<Forum>(watcher, SOCKET_EVENTS.forumUpdate);
      const name = `Porpoise fans ${uniqueName('f')}`;
      const response = await call(alice, 'POST', '/api/forum/addForum', {
        name,
        description: 'All about porpoises',
        thread: '',
      });
      expect(response.statusCode).toBe(200);
      const forum = response.json<Forum>();
      expect(forum).toMatchObject({ name, description: 'All about porpoises' });
      expect(forum.thread).toMatch(/^\d+$/);
      expect(await announced).toEqual(forum);
      expect((await call(eve, 'GET', '/api/forum/getForums')).json<Forum[]>()[0]).toEqual(forum);
      expect((await send(eve, forum.thread, 'Hello forum')).statusCode).toBe(200);
      const thread = (await call(bob, 'GET', `/api/thread/getThreadById/${forum.thread}`)).json<Thread>();
      expect(thread.messages.map((m) => [m.sender, m.content])).toEqual([[eve.username, 'Hello forum']]);
      expect((await call(null, 'GET', `/api/thread/getThreadById/${forum.thread}`)).statusCode).toBe(404);
    });

    it.each([
      [{ name: ' ', description: 'd' }, MESSAGES.forumNameEmpty],
      [{ name: 'n', description: '' }, MESSAGES.forumDescriptionEmpty],
      [{ name: 'x'.repeat(101), description: 'd' }, 'Name cannot be more than 100 characters'],
    ])('refuses %j', async (payload, message) => {
      const before = await count('forums');
      const response = await call(alice, 'POST', '/api/forum/addForum', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, code: expect.any(String) as string });
      expect(await count('forums')).toBe(before);
    });

    it('refuses a duplicate name in any case', async () => {
      const name = `Unique ${uniqueName('f')}`;
      expect((await call(alice, 'POST', '/api/forum/addForum', { name, description: 'd' })).statusCode).toBe(200);
      const dup = await call(bob, 'POST', '/api/forum/addForum', { name: name.toUpperCase(), description: 'd' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toEqual({ error: MESSAGES.forumNameTaken, code: expect.any(String) as string });
    });
  });

  describe('PorpChat', () => {
    it('lets anonymous visitors read and post, live to anonymous sockets', async () => {
      const listener = open();
      await connected(listener);
      const received = nextEvent<{ result: { tid: string; message: Message } }>(listener, SOCKET_EVENTS.messageUpdate);
      const name = uniqueName('guest');
      const response = await send(null, 'porpchat', 'Hi all', name);
      expect(response.statusCode).toBe(200);
      expect((await received).result).toMatchObject({ tid: 'porpchat', message: { content: 'Hi all', sender: name } });
      const thread = (await call(null, 'GET', '/api/thread/getThreadById/porpchat')).json<Thread>();
      expect(thread._id).toBe('porpchat');
      expect(thread.messages.at(-1)).toMatchObject({ content: 'Hi all', sender: name });
    });

    it('refuses a blank name, and a name that belongs to a registered member', async () => {
      expect((await send(null, 'porpchat', 'hi', ' ')).json()).toEqual({
        error: MESSAGES.porpNameRequired,
        code: expect.any(String) as string,
      });
      const taken = await send(null, 'porpchat', 'hi', alice.username.toUpperCase());
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ error: MESSAGES.porpNameTaken, code: expect.any(String) as string });
      expect((await send(alice, 'porpchat', 'me, really', alice.username)).statusCode).toBe(200);
    });

    it('limits each client to about 10 messages per 10 seconds', async () => {
      const limited = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
      try {
        const statuses = [];
        for (let i = 0; i < 11; i++) {
          const response = await limited.app.inject({
            method: 'POST',
            url: '/api/message/addMessage',
            payload: { tid: 'porpchat', msg: { content: `m${i}`, sender: 'chatty' } },
          });
          statuses.push(response.statusCode);
        }
        expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
        expect(statuses[10]).toBe(429);
      } finally {
        await limited.close();
      }
    });
  });
});
