// Trust #15 item 7: the API answers scripts, not tags. An <img> (or a page, a frame)
// pointing at /api/getQuestionById/... or /api/thread/getThreadById/... gets 403 and has no
// effect: no view recorded, nothing marked read.
import { MESSAGES, type Question, type Thread } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('API requests loaded by tags on %s', (kind) => {
  let t: TestApp;
  let asker: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    [asker, reader] = [await registerUser(t.app), await registerUser(t.app)];
  });
  afterAll(async () => t.close());

  const get = (user: TestUser, url: string, dest?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { cookie: user.cookie, ...(dest === undefined ? {} : { 'sec-fetch-dest': dest }) },
    });
  const viewersOf = async (qid: string) => (await get(asker, `/api/getQuestionById/${qid}`)).json<Question>().views;

  it.each(['image', 'document', 'iframe', 'script', 'style'])(
    'refuses Sec-Fetch-Dest: %s with 403 and records no view',
    async (dest) => {
      const qid = await askQuestion(t.app, asker);
      expect(await viewersOf(qid)).toEqual([asker.username]);
      const before = await snapshot(t.app.db);
      const response = await get(reader, `/api/getQuestionById/${qid}`, dest);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: MESSAGES.notForScripts, code: expect.any(String) as string });
      expect(await snapshot(t.app.db)).toEqual(before);
      expect(await viewersOf(qid)).toEqual([asker.username]);
    },
  );

  it.each([['empty'], [undefined]])('records the view when Sec-Fetch-Dest is %s', async (dest) => {
    const qid = await askQuestion(t.app, asker);
    const response = await get(reader, `/api/getQuestionById/${qid}`, dest);
    expect(response.statusCode).toBe(200);
    expect(response.json<Question>().views).toEqual([reader.username]);
    expect(await viewersOf(qid)).toEqual([reader.username, asker.username]);
  });

  it('marks a thread read only for a script: an image gets 403 and leaves it unread', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/thread/addThread',
      headers: { cookie: asker.cookie },
      payload: { accounts: [asker.username, reader.username] },
    });
    const tid = created.json<Thread>()._id;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      headers: { cookie: asker.cookie },
      payload: { tid, msg: { content: 'Did you see this?' } },
    });
    expect(sent.statusCode).toBe(200);
    const lastViews = async () => {
      const threads = (await get(reader, '/api/thread/getThreads')).json<Thread[]>();
      return threads.find((thread) => thread._id === tid)!.messages.at(-1)!.views;
    };
    expect(await lastViews()).toEqual([asker.username]);

    const before = await snapshot(t.app.db);
    const image = await get(reader, `/api/thread/getThreadById/${tid}`, 'image');
    expect(image.statusCode).toBe(403);
    expect(image.json()).toEqual({ error: MESSAGES.notForScripts, code: expect.any(String) as string });
    expect(await snapshot(t.app.db)).toEqual(before);
    expect(await lastViews()).toEqual([asker.username]);

    expect((await get(reader, `/api/thread/getThreadById/${tid}`, 'empty')).statusCode).toBe(200);
    expect((await lastViews()).sort()).toEqual([asker.username, reader.username].sort());
  });
});
