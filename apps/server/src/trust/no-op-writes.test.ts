// Issue 23 item 4: a write that changes nothing invalidates nothing. Every vote cleared every
// cached list and question page (on every process), so repeating a vote, which the duplicate
// window turns into a no-op, made each next read of a large page load and serialise it again.
import type { Question } from '@porpoise/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { votes } from '../db/schema.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { accountIdOf, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('no-op writes on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
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

  it('clears no cache for a repeated vote or a repeated view', async () => {
    const qid = await askQuestion(t.app, alice);
    await request(bob, 'POST', '/api/upvoteQuestion', { qid });
    // The vote was cast just now as far as the duplicate window is concerned, however slow
    // this machine is: the next identical vote is a repeat that changes nothing.
    await t.app.db
      .update(votes)
      .set({ votedAt: new Date(Date.now() + 3_600_000) })
      .where(and(eq(votes.questionId, Number(qid)), eq(votes.accountId, await accountIdOf(t.app, bob.username))));
    await request(bob, 'GET', `/api/getQuestionById/${qid}`); // bob's first view: a real write
    await request(bob, 'GET', `/api/getQuestionById/${qid}`); // cached now
    await request(bob, 'GET', '/api/getQuestion?order=newest');
    const before = loads();

    const repeat = await request(bob, 'POST', '/api/upvoteQuestion', { qid });
    expect(repeat.json()).toEqual({ qid, upVotes: [bob.username], downVotes: [] });
    const page = await request(bob, 'GET', `/api/getQuestionById/${qid}`); // a repeated view
    expect(page.json<Question>().upVotes).toEqual([bob.username]);
    await request(bob, 'GET', '/api/getQuestion?order=newest');
    expect(loads()).toEqual(before);

    // A vote that changes something still clears both.
    await request(bob, 'POST', '/api/downvoteQuestion', { qid });
    const moved = await request(bob, 'GET', `/api/getQuestionById/${qid}`);
    expect(moved.json<Question>().downVotes).toEqual([bob.username]);
    await request(bob, 'GET', '/api/getQuestion?order=newest');
    expect(loads()).toEqual({ lists: before.lists + 1, questions: before.questions + 1 });
  });
});
