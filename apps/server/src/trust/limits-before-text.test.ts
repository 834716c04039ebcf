// Issue 15 item 1: a member past a posting limit is refused before the post's text is
// checked, so text that is costly or invalid costs nothing more once the limit is reached.
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** Invalid under the link rule, and the input that made the old link pattern take half a second. */
const BRACKETS = '['.repeat(29_000);
const BAD_LINK = 'see [here](http://insecure.example)';

describe.each(DATABASE_KINDS)('posting limits before text checks on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // The real posting limits (12 posts a minute per account); registration raised for the test.
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

  const writes = {
    question: (user: TestUser, _qid: string, text: string) =>
      post(user, '/api/addQuestion', { title: 'Limits', text, tags: [{ name: 'limits' }] }),
    answer: (user: TestUser, qid: string, text: string) => post(user, '/api/answer/addAnswer', { qid, ans: { text } }),
    comment: (user: TestUser, qid: string, text: string) =>
      post(user, '/api/comment/addComment', { id: qid, type: 'question', comment: { text } }),
  };

  it.each(Object.entries(writes))(
    'answers 429, not 400, to an invalid %s from a member past the limit, storing nothing',
    async (_kind, write) => {
      const owner = await registerUser(t.app);
      const qid = await askQuestion(t.app, owner);
      const member = await registerUser(t.app);
      for (let i = 0; i < 12; i++) expect((await write(member, qid, `post ${i}`)).statusCode).toBe(200);
      // Within the limit the same text is refused by its rule (a comment has no link rule,
      // so its invalid text is one over its length).
      const invalid = _kind === 'comment' ? 'x'.repeat(1_001) : BAD_LINK;
      // A comment's body limit (about 14 kB) answers longer bodies 413 before they are read.
      const costly = _kind === 'comment' ? BRACKETS.slice(0, 10_000) : BRACKETS;
      expect((await write(owner, qid, invalid)).statusCode).toBe(400);

      const refused = await write(member, qid, `post 12`);
      expect(refused.statusCode).toBe(429);
      const before = await snapshot(t.app.db);
      for (const text of [invalid, costly]) {
        const response = await write(member, qid, text);
        expect(response.statusCode).toBe(429);
        expect(response.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(await snapshot(t.app.db)).toEqual(before);
      // The member's other kinds of post and other members are not held by this refusal.
      expect((await post(member, '/api/upvoteQuestion', { qid })).statusCode).toBe(200);
      expect((await write(owner, qid, 'still free')).statusCode).toBe(200);
    },
  );
});
