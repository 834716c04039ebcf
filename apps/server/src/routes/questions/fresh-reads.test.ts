import type { Question, QuestionSummary } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { statementsDuring } from '../../test/statements.ts';

/** The home list and question pages are answered from memory; every write must show at once. */
describe.each(DATABASE_KINDS)('cached reads on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const get = async <T>(user: TestUser, url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
    expect(response.statusCode).toBe(200);
    return { body: response.json<T>(), total: Number(response.headers['x-total-count']) };
  };
  const post = async (user: TestUser, url: string, payload: object) => {
    const response = await t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
    expect(response.statusCode).toBe(200);
  };
  const newest = () => get<QuestionSummary[]>(bob, '/api/getQuestion?order=newest&page=1');
  const page = async (qid: string, user = alice) => (await get<Question>(user, `/api/getQuestionById/${qid}`)).body;

  it('shows each kind of write in the very next read of the list and the page', async () => {
    const qid = await askQuestion(t.app, alice);
    const first = await newest();
    expect(first.body[0]?._id).toBe(qid);
    expect(await newest()).toEqual(first);
    await page(qid);

    await answerQuestion(t.app, bob, qid, 'Fresh answer');
    expect((await page(qid)).answers.map((a) => a.text)).toEqual(['Fresh answer']);
    expect((await newest()).body[0]?.answerCount).toBe(1);

    await post(bob, '/api/comment/addComment', { id: qid, type: 'question', comment: { text: 'Fresh comment' } });
    expect((await page(qid)).comments.map((c) => c.text)).toEqual(['Fresh comment']);

    await post(bob, '/api/upvoteQuestion', { qid });
    expect((await page(qid)).upVotes).toEqual([bob.username]);
    expect((await newest()).body[0]?.voteCount).toBe(1);

    // A first view counts at once on the viewer's own page (and this process's cached
    // page), and in the lists within a second: at once here once the views are counted.
    const viewed = await page(qid, bob);
    expect(viewed.views).toEqual([alice.username, bob.username]);
    expect(viewed.viewCount).toBe(2);
    expect((await page(qid)).viewCount).toBe(2);
    await t.app.events.flushViews();
    expect((await newest()).body[0]?.viewCount).toBe(2);

    const next = await askQuestion(t.app, alice);
    const after = await newest();
    expect(after.body[0]?._id).toBe(next);
    expect(after.total).toBe(first.total + 1);
  });

  it('answers a repeated read without the database', async () => {
    const qid = await askQuestion(t.app, alice);
    await page(qid); // alice's first view
    await page(qid);
    await newest();
    const queries = await statementsDuring(t.app.db, async () => {
      await page(qid);
      await newest();
    });
    expect(queries).toEqual([]);
  });
});
