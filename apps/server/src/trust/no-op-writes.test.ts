// Issue 23 item 4 and issue 16 item 3: views are counters, not content changes. A first
// view, and a repeated one, drop no cached page: the question page and the list rows get
// their new counts in place (the lists within a second), and a vote, which changes what
// pages show, drops only the pages that show its question.
import type { Question, QuestionSummary } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('views drop no cached page on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    // Views are counted only when the test says so.
    t = await startTestApp(kind, { configure: (config) => void (config.viewCountMs = 3_600_000) });
    [alice, bob, carol] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  });
  afterAll(async () => t.close());

  const request = async (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await t.app.inject({ method, url, headers: { cookie: user.cookie }, payload });
    expect(response.statusCode).toBe(200);
    return response;
  };
  const loads = () => ({
    lists: t.app.contentCache.lists.loads,
    questions: t.app.contentCache.questions.loads,
  });
  const newest = async (user: TestUser) =>
    (await request(user, 'GET', '/api/getQuestion?order=newest')).json<QuestionSummary[]>();

  it('counts first and repeated views without loading any cached page again', async () => {
    const qid = await askQuestion(t.app, alice);
    await request(alice, 'GET', `/api/getQuestionById/${qid}`); // alice's first view
    expect((await newest(alice))[0]?._id).toBe(qid);
    const before = loads();

    const bobs = (await request(bob, 'GET', `/api/getQuestionById/${qid}`)).json<Question>(); // first view
    expect(bobs.viewCount).toBe(2);
    expect(bobs.views).toEqual([alice.username, bob.username]);
    await request(bob, 'GET', `/api/getQuestionById/${qid}`); // repeated
    const carols = (await request(carol, 'GET', `/api/getQuestionById/${qid}`)).json<Question>();
    expect(carols.viewCount).toBe(3);
    expect((await newest(alice))[0]?.viewCount).toBe(1); // the list's count lags until views are counted
    await t.app.events.flushViews();
    expect((await newest(alice))[0]?.viewCount).toBe(3);
    expect((await request(alice, 'GET', `/api/getQuestionById/${qid}`)).json<Question>().viewCount).toBe(3);
    expect(loads()).toEqual(before);

    // A vote changes the page and the row: each is loaded once more.
    await request(bob, 'POST', '/api/upvoteQuestion', { qid });
    expect((await request(bob, 'GET', `/api/getQuestionById/${qid}`)).json<Question>().upVotes).toEqual([bob.username]);
    expect((await newest(alice))[0]?.voteCount).toBe(1);
    expect(loads()).toEqual({ lists: before.lists + 1, questions: before.questions + 1 });
  });
});
