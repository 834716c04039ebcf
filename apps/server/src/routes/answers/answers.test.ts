import type { QuestionSummary } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('answering at once on %s', (kind) => {
  let t: TestApp;
  let users: TestUser[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    users = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.app)));
  });
  afterAll(async () => t.close());

  const unansweredTotal = async () =>
    Number(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/getQuestion?order=unanswered',
          headers: { cookie: users[0]!.cookie },
        })
      ).headers['x-total-count'],
    );

  it('counts every one of many simultaneous answers, and leaves the unanswered list once', async () => {
    const qid = await askQuestion(t.app, users[0]!);
    const before = await unansweredTotal();
    await Promise.all(Array.from({ length: 20 }, (_, i) => answerQuestion(t.app, users[i % 5]!, qid, `Answer ${i}`)));
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/getQuestion?order=newest',
      headers: { cookie: users[0]!.cookie },
    });
    const row = list.json<QuestionSummary[]>().find((q) => q._id === qid);
    expect(row?.answerCount).toBe(20);
    expect(await unansweredTotal()).toBe(before - 1);
  });

  it('refuses an answer to a question that does not exist with 404', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/answer/addAnswer',
      headers: { cookie: users[1]!.cookie },
      payload: { qid: '999999', ans: { text: 'Into the void' } },
    });
    expect(response.statusCode).toBe(404);
  });
});
