// Trust case 22: random valid-shaped and invalid bodies, queries and ids sent to every API
// route never produce a 500 or a crash, and a refused request changes nothing.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', "%' --", '1 OR 1=1', '<script>alert(1)</script>', 'x'.repeat(40_000)),
);
const id = fc.oneof(
  fc.nat().map(String),
  fc.integer(),
  fc.double(),
  text,
  fc.constant(null),
  fc.array(fc.nat()),
  fc.object(),
);
const anything = fc.oneof(fc.anything(), fc.jsonValue());
/** Percent-encodes any string, lone surrogates included (as the bytes a careless client would send). */
const encode = (value: string) =>
  value.isWellFormed() ? encodeURIComponent(value) : '%ED%A0%80' + encodeURIComponent(value.toWellFormed());

/** Each route with generators for a body of roughly the right shape, and for anything at all. */
const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT'; url: (v: string) => string; body?: fc.Arbitrary<unknown> }> = [
  {
    method: 'POST',
    url: () => '/api/account/addAccount',
    body: fc.record({ username: text, email: text, password: text }),
  },
  { method: 'POST', url: () => '/api/account/login', body: fc.record({ username: text, password: text }) },
  {
    method: 'POST',
    url: () => '/api/addQuestion',
    body: fc.record({
      title: text,
      text,
      tags: fc.oneof(fc.array(fc.record({ name: text })), anything),
      askedBy: text,
    }),
  },
  { method: 'POST', url: () => '/api/upvoteQuestion', body: fc.record({ qid: id, username: text }) },
  { method: 'POST', url: () => '/api/downvoteQuestion', body: fc.record({ qid: id }) },
  {
    method: 'POST',
    url: () => '/api/answer/addAnswer',
    body: fc.record({ qid: id, ans: fc.oneof(fc.record({ text, ansBy: text }), anything) }),
  },
  {
    method: 'POST',
    url: () => '/api/comment/addComment',
    body: fc.record({ id, type: fc.oneof(fc.constantFrom('question', 'answer'), text), comment: fc.record({ text }) }),
  },
  { method: 'PUT', url: () => '/api/profile/updateBio', body: fc.record({ username: text, bio: text }) },
  {
    method: 'POST',
    url: () => '/api/account/saveAccessibilitySettings',
    body: fc.record({
      username: text,
      accessibilitySettings: fc.record({ lowVision: anything, colorBlindness: text }),
    }),
  },
  {
    method: 'POST',
    url: () => '/api/thread/addThread',
    body: fc.record({ accounts: fc.oneof(fc.array(text), anything) }),
  },
  {
    method: 'POST',
    url: () => '/api/message/addMessage',
    body: fc.record({ tid: fc.oneof(id, fc.constant('porpchat')), msg: fc.record({ content: text, sender: text }) }),
  },
  { method: 'POST', url: () => '/api/message/readMessage', body: fc.record({ mid: id, username: text }) },
  { method: 'POST', url: () => '/api/forum/addForum', body: fc.record({ name: text, description: text }) },
  { method: 'GET', url: (v) => `/api/getQuestion?order=${v}&search=${v}&tag=${v}&limit=${v}&offset=${v}` },
  { method: 'GET', url: (v) => `/api/getQuestionById/${v}?username=${v}` },
  { method: 'GET', url: (v) => `/api/tag/getTagByName/${v}` },
  { method: 'GET', url: (v) => `/api/profile/getQuestions?username=${v}` },
  { method: 'GET', url: (v) => `/api/profile/getAnswers?username=${v}` },
  { method: 'GET', url: (v) => `/api/profile/getBio?username=${v}` },
  { method: 'GET', url: (v) => `/api/thread/getThreads?username=${v}` },
  { method: 'GET', url: (v) => `/api/thread/getThreadById/${v}?username=${v}` },
  { method: 'GET', url: (v) => `/api/forum/getForums?username=${v}` },
];

describe.each(DATABASE_KINDS)('fuzzing every API route on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    const qid = await askQuestion(t.app, user);
    await answerQuestion(t.app, user, qid);
  });
  afterAll(async () => t.close());

  it.each(ROUTES.map((route) => [`${route.method} ${route.url(':v')}`, route] as const))('%s', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(route.body ?? anything, anything),
        text,
        fc.boolean(),
        async (body, value, signedIn) => {
          const before = route.method === 'GET' ? null : await snapshot(t.app.db);
          const response = await t.app.inject({
            method: route.method,
            url: route.url(encode(value.slice(0, 2_000))),
            headers: { ...(signedIn ? { cookie: user.cookie } : {}), 'content-type': 'application/json' },
            ...(route.method === 'GET' ? {} : { payload: JSON.stringify(body) ?? 'null' }),
          });
          expect(response.statusCode).toBeLessThan(500);
          expect(response.headers['content-type']).toContain('application/json');
          if (before && response.statusCode !== 200) expect(await snapshot(t.app.db)).toEqual(before);
        },
      ),
      { numRuns: kind === 'pglite' ? 40 : 25 },
    );
    expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);
  });
});
