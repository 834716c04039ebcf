// Trust cases 14 and 23: posting faster than a person could is refused per account, and
// the session cookie is Secure once the app is reached over HTTPS.
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, insertQuestions, registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('abuse limits on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The real limits, except registration, which every test here needs a lot of.
    t = await startTestApp(kind, {
      env: { RATE_LIMIT_MULTIPLIER: '1' },
      configure: (config) => {
        config.rateLimits.registerPerIp = { max: 1_000, windowMs: 60_000 };
      },
    });
  });
  afterAll(async () => t.close());

  const post = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });

  it.each([
    [
      'questions',
      (user: TestUser) => post(user, '/api/addQuestion', { title: 'Spam', text: 'spam', tags: [{ name: 'spam' }] }),
    ],
    [
      'comments',
      async (user: TestUser, qid: string) =>
        post(user, '/api/comment/addComment', { id: qid, type: 'question', comment: { text: 'spam' } }),
    ],
    [
      'answers',
      async (user: TestUser, qid: string) => post(user, '/api/answer/addAnswer', { qid, ans: { text: 'spam' } }),
    ],
  ])('refuses %s past about one per 5 s (12 a minute) with 429, storing nothing more', async (_kind, write) => {
    const owner = await registerUser(t.app);
    const qid = await askQuestion(t.app, owner);
    const spammer = await registerUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await write(spammer, qid)).statusCode);
    expect(statuses).toEqual(Array(12).fill(200));
    const before = await snapshot(t.app.db);
    const refused = await write(spammer, qid);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await snapshot(t.app.db)).toEqual(before);
    // Another member is not held back by the spammer.
    expect((await write(owner, qid)).statusCode).toBe(200);
  });

  it('holds an answer to the limit before looking for its question: 404 within it, 429 past it', async () => {
    const owner = await registerUser(t.app);
    const qid = await askQuestion(t.app, owner);
    const spammer = await registerUser(t.app);
    const answer = (to: string) => post(spammer, '/api/answer/addAnswer', { qid: to, ans: { text: 'spam' } });
    const missing = String(Number(qid) + 1_000_000);
    expect((await answer(missing)).statusCode).toBe(404);
    for (let i = 0; i < 11; i++) expect((await answer(qid)).statusCode).toBe(200);
    const before = await snapshot(t.app.db);
    expect((await answer(missing)).statusCode).toBe(429);
    expect((await answer(qid)).statusCode).toBe(429);
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('refuses direct messages past the same limit (starting the thread was one post)', async () => {
    const [a, b] = [await registerUser(t.app), await registerUser(t.app)];
    const thread = await post(a, '/api/thread/addThread', { accounts: [a.username, b.username] });
    const tid = thread.json<{ _id: string }>()._id;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post(a, '/api/message/addMessage', { tid, msg: { content: `m${i}` } })).statusCode);
    expect(statuses.slice(0, 11)).toEqual(Array(11).fill(200));
    expect(statuses[11]).toBe(429);
  });

  it('refuses votes past 60 a minute', async () => {
    const owner = await registerUser(t.app);
    const voter = await registerUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push(
        (await post(voter, '/api/upvoteQuestion', { qid: i < 4 ? await askQuestion(t.app, owner) : '1' })).statusCode,
      );
    expect(statuses.slice(0, 60).every((status) => status !== 429)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('refuses flags past 20 an hour (docs/product.md section 6), saying when to try again', async () => {
    const owner = await registerUser(t.app);
    const flagger = await registerUser(t.app);
    const qids = await insertQuestions(t.app, owner, {
      count: 21,
      tag: uniqueName('flagged'),
      word: 'w',
      rareWord: 'r',
    });
    const flag = (qid: number) =>
      post(flagger, '/api/flag', { targetType: 'question', targetId: String(qid), reason: 'spam' });
    const statuses: number[] = [];
    for (const qid of qids.slice(0, 20)) statuses.push((await flag(qid)).statusCode);
    expect(statuses).toEqual(Array(20).fill(200));
    const refused = await flag(qids[20]!);
    expect(refused.statusCode).toBe(429);
    // Within the hour: the window is an hour, not a minute.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3_600);
  });
});

describe('the session cookie over HTTPS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { env: { TRUST_PROXY: 'true', PUBLIC_URL: 'https://porpoise.example' } });
  });
  afterAll(async () => t.close());

  it('is HttpOnly, SameSite=Lax, Path=/ and Secure behind a TLS proxy', async () => {
    const username = uniqueName();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { 'x-forwarded-proto': 'https', host: 'porpoise.example', origin: 'https://porpoise.example' },
      payload: { username, email: `${username}@example.com`, password: 'secret1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'porpoise_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: true,
    });
  });
});
