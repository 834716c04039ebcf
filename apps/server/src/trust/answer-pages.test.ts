// Issue 23 item 4: a question page carried every answer, so one member could build a 24 MB
// page (200 answers of 30,000 four-byte characters) that every reader loaded, serialised
// and compressed. The page now carries its first LIMITS.answerPageSize answers and
// `answerCount`; the rest come a page at a time from GET /api/question/{qid}/answers.
import { LIMITS, type Answer, type Question } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const ANSWERS = 2 * LIMITS.answerPageSize + 5;

describe.each(DATABASE_KINDS)('answer pages on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let qid: string;
  const posted: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    qid = await askQuestion(t.app, user);
    for (let i = 0; i < ANSWERS; i += 1) posted.push(await answerQuestion(t.app, user, qid, `Answer ${i}`));
  });
  afterAll(async () => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });

  it('returns a bounded first page with the count, and the rest page by page, with their comments', async () => {
    const page = await get(`/api/getQuestionById/${qid}`);
    expect(page.statusCode).toBe(200);
    const question = page.json<Question>();
    expect(question.answerCount).toBe(ANSWERS);
    expect(question.answers.map((answer) => answer._id)).toEqual(posted.slice(0, LIMITS.answerPageSize));

    const commented = posted[LIMITS.answerPageSize + 3] as string;
    const comment = await t.app.inject({
      method: 'POST',
      url: '/api/comment/addComment',
      headers: { cookie: user.cookie },
      payload: { id: commented, type: 'answer', comment: { text: 'On page two' } },
    });
    expect(comment.statusCode).toBe(200);

    const seen = question.answers.map((answer) => answer._id);
    let after = seen.at(-1);
    const sizes: number[] = [];
    for (;;) {
      const next = await get(`/api/question/${qid}/answers?after=${after}`);
      expect(next.statusCode).toBe(200);
      const answers = next.json<Answer[]>();
      sizes.push(answers.length);
      if (answers.length === 0) break;
      seen.push(...answers.map((answer) => answer._id));
      if (answers.some((answer) => answer._id === commented)) {
        expect(answers.find((answer) => answer._id === commented)?.comments.map((c) => c.text)).toEqual([
          'On page two',
        ]);
      }
      after = answers.at(-1)?._id;
    }
    expect(sizes).toEqual([LIMITS.answerPageSize, 5, 0]);
    expect(seen).toEqual(posted);
    const first = await get(`/api/question/${qid}/answers`);
    expect(first.json<Answer[]>().map((answer) => answer._id)).toEqual(posted.slice(0, LIMITS.answerPageSize));
  });

  it('refuses a malformed cursor and an unknown question', async () => {
    for (const after of ['abc', '-1', '0', '1'.repeat(30)]) {
      expect((await get(`/api/question/${qid}/answers?after=${after}`)).statusCode).toBe(400);
    }
    expect((await get('/api/question/999999999/answers')).statusCode).toBe(404);
  });
});
