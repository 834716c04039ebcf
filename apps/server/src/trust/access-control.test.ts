// Trust cases 6, 7, 11, 19 and 26: every write needs its own session, names only its own
// actor, ignores fields it does not know, refuses malformed input with 400, and nothing
// a socket receives carries an email, a password hash or a session token.
import { SOCKET_EVENTS } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { connected, openSocket, recordAll, showQuestions, until } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

interface WriteRoute {
  method: 'POST' | 'PUT';
  url: string;
  /** A valid payload acting as `actor` (who must be the session user for it to succeed). */
  payload: (actor: string, ids: Ids) => Record<string, unknown>;
}

interface Ids {
  qid: string;
  aid: string;
  tid: string;
  mid: string;
}

/** Every state-changing API route, with a payload naming its actor. */
const WRITES: WriteRoute[] = [
  {
    method: 'POST',
    url: '/api/addQuestion',
    payload: (actor) => ({ title: 'T', text: 'x', tags: [{ name: 'a' }], askedBy: actor }),
  },
  { method: 'POST', url: '/api/upvoteQuestion', payload: (actor, ids) => ({ qid: ids.qid, username: actor }) },
  { method: 'POST', url: '/api/downvoteQuestion', payload: (actor, ids) => ({ qid: ids.qid, username: actor }) },
  {
    method: 'POST',
    url: '/api/answer/addAnswer',
    payload: (actor, ids) => ({ qid: ids.qid, ans: { text: 'x', ansBy: actor } }),
  },
  {
    method: 'POST',
    url: '/api/comment/addComment',
    payload: (actor, ids) => ({ id: ids.qid, type: 'question', comment: { text: 'x', commentBy: actor } }),
  },
  {
    method: 'POST',
    url: '/api/comment/addComment',
    payload: (actor, ids) => ({ id: ids.aid, type: 'answer', comment: { text: 'x', commentBy: actor } }),
  },
  { method: 'PUT', url: '/api/profile/updateBio', payload: (actor) => ({ username: actor, bio: 'changed' }) },
  {
    method: 'POST',
    url: '/api/account/saveAccessibilitySettings',
    payload: (actor) => ({ username: actor, accessibilitySettings: { lowVision: true, colorBlindness: 'grayscale' } }),
  },
  {
    method: 'POST',
    url: '/api/thread/addThread',
    payload: (actor) => ({ messages: [], accounts: [actor, 'carol_target'] }),
  },
  {
    method: 'POST',
    url: '/api/message/addMessage',
    payload: (actor, ids) => ({ tid: ids.tid, msg: { content: 'x', sender: actor } }),
  },
  { method: 'POST', url: '/api/message/readMessage', payload: (actor, ids) => ({ mid: ids.mid, username: actor }) },
];

/** Routes whose payload names no actor: only the session decides. */
const ANONYMOUS_WRITES: WriteRoute[] = [
  { method: 'POST', url: '/api/forum/addForum', payload: () => ({ name: 'Forum x', description: 'd' }) },
];

describe.each(DATABASE_KINDS)('access control on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let ids: Ids;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
    await registerUser(t.app, { username: 'carol_target' });
    const qid = await askQuestion(t.app, alice);
    const aid = await answerQuestion(t.app, alice, qid);
    const thread = await t.app.inject({
      method: 'POST',
      url: '/api/thread/addThread',
      headers: { cookie: alice.cookie },
      payload: { accounts: [alice.username, bob.username] },
    });
    const tid = thread.json<{ _id: string }>()._id;
    const message = await t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      headers: { cookie: alice.cookie },
      payload: { tid, msg: { content: 'hi' } },
    });
    ids = { qid, aid, tid, mid: message.json<{ _id: string }>()._id };
  });
  afterAll(async () => t.close());

  const send = (route: WriteRoute, payload: unknown, cookie?: string) =>
    t.app.inject({
      method: route.method,
      url: route.url,
      headers: cookie ? { cookie } : {},
      payload: payload as object,
    });

  it.each([...WRITES, ...ANONYMOUS_WRITES].map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s without a session: 401 and nothing changes',
    async (_name, route) => {
      const before = await snapshot(t.app.db);
      const response = await send(route, route.payload(alice.username, ids));
      expect(response.statusCode).toBe(401);
      expect(await snapshot(t.app.db)).toEqual(before);
    },
  );

  it.each(WRITES.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s naming another account as its actor: 403 and nothing changes',
    async (_name, route) => {
      const before = await snapshot(t.app.db);
      const response = await send(route, route.payload(alice.username, ids), bob.cookie);
      expect(response.statusCode).toBe(403);
      expect(await snapshot(t.app.db)).toEqual(before);
    },
  );

  it.each([
    ['an id that is an array', { qid: ['1'], username: undefined }],
    ['an id that is an object', { qid: { $gt: 0 } }],
    ['an id that is a float', { qid: 1.5 }],
    ['an id that is SQL', { qid: '1 OR 1=1' }],
  ])('refuses %s with 400', async (_label, payload) => {
    const before = await snapshot(t.app.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upvoteQuestion',
      headers: { cookie: alice.cookie },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('error');
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it.each([
    ['a lone surrogate', 'bad \ud800 text'],
    ['a NUL character', 'bad \u0000 text'],
    ['whitespace only', ' \n\t '],
  ])('refuses %s in text with 400, never 500', async (_label, text) => {
    const before = await snapshot(t.app.db);
    for (const payload of [
      { title: text, text: 'x', tags: [{ name: 'a' }] },
      { title: 'ok', text, tags: [{ name: 'a' }] },
      { title: 'ok', text: 'x', tags: [{ name: text }] },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/addQuestion',
        headers: { cookie: alice.cookie },
        payload,
      });
      expect(response.statusCode).toBe(400);
    }
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('ignores unknown fields such as a role or counters', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/addQuestion',
      headers: { cookie: alice.cookie },
      payload: {
        title: 'Fields',
        text: 'x',
        tags: [{ name: 'a' }],
        role: 'admin',
        upVotes: ['x'],
        views: ['y'],
        askedBy: alice.username,
        _id: '1',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ upVotes: [], views: [] });
    expect(response.json<{ _id: string }>()._id).not.toBe('1');
  });

  it('never puts an email, password hash or session token in a socket event', async () => {
    const watcher = openSocket(t.url, { cookie: bob.cookie });
    await connected(watcher);
    const seen = recordAll(watcher);
    const qid = await askQuestion(t.app, alice);
    await showQuestions(watcher, [qid]);
    await answerQuestion(t.app, alice, qid);
    await t.app.inject({ method: 'GET', url: `/api/getQuestionById/${qid}`, headers: { cookie: alice.cookie } });
    await t.app.inject({
      method: 'POST',
      url: '/api/upvoteQuestion',
      headers: { cookie: alice.cookie },
      payload: { qid },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/comment/addComment',
      headers: { cookie: alice.cookie },
      payload: { id: qid, type: 'question', comment: { text: 'c' } },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      headers: { cookie: alice.cookie },
      payload: { tid: ids.tid, msg: { content: 'dm' } },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/forum/addForum',
      headers: { cookie: alice.cookie },
      payload: { name: `F ${qid}`, description: 'd' },
    });
    // First views are counted and announced once a second: now, rather than wait for it.
    await t.app.events.flushViews();
    const expected = [
      SOCKET_EVENTS.questionUpdate,
      SOCKET_EVENTS.answerUpdate,
      SOCKET_EVENTS.viewsUpdate,
      SOCKET_EVENTS.voteUpdate,
      SOCKET_EVENTS.commentUpdate,
      SOCKET_EVENTS.messageUpdate,
      SOCKET_EVENTS.forumUpdate,
    ];
    const heard = () => new Set(seen.map((e) => e.event));
    await until(() => expected.every((name) => heard().has(name)), 5_000);
    for (const name of expected) expect(heard()).toContain(name);
    const text = JSON.stringify(seen);
    for (const secret of [alice.email, bob.email, alice.cookie.split('=')[1]!, bob.cookie.split('=')[1]!, 'scrypt$'])
      expect(text).not.toContain(secret);
    watcher.disconnect();
  });
});
