import { SOCKET_EVENTS, type Question, type QuestionSummary, type TagWithCount } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { type Call, callAs, registerUser, type TestUser } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll, showQuestions } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Review = SocketPayloads['reviewUpdate'];
type Queue = { items: Array<NonNullable<Review['item']>>; open: number };

/**
 * The post queue's edits and a held question's tags (docs/product.md section 10, "Post queue" and
 * the tags paragraph), on both databases.
 */
describe.each(DATABASE_KINDS)('edits under the post queue (NEW_ACCOUNT_APPROVAL=true) on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { NEW_ACCOUNT_APPROVAL: 'true' } });
    admin = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const ask = async (user: TestUser, tag = 'queue') =>
    (
      await call(user, 'POST', '/api/addQuestion', {
        title: `Pending ${Date.now()}`,
        text: 'Is this seen?',
        tags: [{ name: tag, description: '' }],
        askedBy: user.username,
      })
    ).json<Question>();
  const answer = async (user: TestUser, qid: string, text: string) =>
    (await call(user, 'POST', '/api/answer/addAnswer', { qid, ans: { text, ansBy: user.username } })).json<{
      _id: string;
      held?: string;
    }>();
  const approve = async (targetType: 'question' | 'answer', targetId: string) => {
    const approved = await call(admin, 'POST', '/api/moderation/dismiss', { targetType, targetId });
    expect(approved.statusCode).toBe(200);
  };
  const ids = (rows: Array<{ _id: string }>) => rows.map((row) => row._id);
  const newest = async (user: TestUser) =>
    ids((await call(user, 'GET', '/api/getQuestion?order=newest')).json<QuestionSummary[]>());
  const page = (user: TestUser, qid: string) => call(user, 'GET', `/api/getQuestionById/${qid}`);
  const listedTag = async (user: TestUser, tag: string) =>
    (await call(user, 'GET', '/api/tag/getTagsWithQuestionNumber'))
      .json<TagWithCount[]>()
      .find((row) => row.name === tag);
  const queued = async () =>
    (await call(admin, 'GET', '/api/moderation/queue'))
      .json<Queue>()
      .items.map((item) => [item.targetType, item.targetId, item.heldFor]);

  it("holds a question's edit by a member still under the queue until approved, and its new tag with it", async () => {
    const member = await registerUser(t.app);
    const reader = await registerUser(t.app);
    const spam = `cheapwatches${Date.now().toString(36)}`;
    const tag = `edq${Date.now().toString(36)}`;
    // One post let through: the member is still under the queue (two are needed).
    const qid = (await ask(member))._id;
    await approve('question', qid);
    expect(await newest(reader)).toContain(qid);
    // Read before the edit, so that the lists and the tags page are cached.
    expect(await listedTag(reader, tag)).toBeUndefined();

    const watcher = openSocket(t.url, { cookie: reader.cookie });
    const moderatorSocket = openSocket(t.url, { cookie: admin.cookie });
    try {
      await Promise.all([connected(watcher), connected(moderatorSocket)]);
      await showQuestions(watcher, [qid]);
      const seen = recordAll(watcher);
      const hidden = nextEvent<SocketPayloads['deleteUpdate']>(watcher, SOCKET_EVENTS.deleteUpdate);
      const review = nextEvent<Review>(moderatorSocket, SOCKET_EVENTS.reviewUpdate);
      const edited = await call(member, 'PUT', `/api/question/${qid}`, {
        title: `Buy ${spam} now`,
        text: `Visit us for ${spam}.`,
        tags: [{ name: tag, description: '' }],
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json<Question>()).toMatchObject({ title: `Buy ${spam} now`, deleted: true, held: 'approval' });
      expect(await hidden).toEqual({ qid, post: 'question', id: qid, deleted: true, held: 'approval' });
      expect(await review).toMatchObject({ targetType: 'question', targetId: qid, item: { heldFor: 'approval' } });
      // The edited text never reached a reader's socket (the edit's events come before the hold's).
      expect(JSON.stringify(seen)).not.toContain(spam);
    } finally {
      watcher.disconnect();
      moderatorSocket.disconnect();
    }

    // Gone from every list, page, search, tag and profile, as a new held post is.
    expect(await newest(reader)).not.toContain(qid);
    expect((await page(reader, qid)).statusCode).toBe(404);
    expect((await call(reader, 'GET', `/api/getQuestion?search=${spam}`)).json()).toEqual([]);
    expect((await call(reader, 'GET', `/api/getQuestion?tag=${tag}&order=newest`)).json()).toEqual([]);
    const profile = await call(reader, 'GET', `/api/profile/getQuestions?username=${member.username}`);
    expect(ids(profile.json<QuestionSummary[]>())).not.toContain(qid);
    // Its new tag is carried by no shown question: not listed, and not there by name.
    expect(await listedTag(reader, tag)).toBeUndefined();
    const byName = await call(reader, 'GET', `/api/tag/getTagByName/${tag}`);
    expect([byName.statusCode, byName.json<{ error: string }>().error]).toEqual([404, `Tag not found: ${tag}`]);
    // Its author sees it waiting; the review queue has it.
    expect((await page(member, qid)).json<Question>()).toMatchObject({ held: 'approval', title: `Buy ${spam} now` });
    expect(await queued()).toContainEqual(['question', qid, 'approval']);

    // Approved: it shows again with the edited text, and its tag with it.
    await approve('question', qid);
    expect((await page(reader, qid)).json<Question>()).toMatchObject({ title: `Buy ${spam} now` });
    expect(await newest(reader)).toContain(qid);
    expect(await listedTag(reader, tag)).toMatchObject({ name: tag, qcnt: 1 });
    expect((await call(reader, 'GET', `/api/tag/getTagByName/${tag}`)).statusCode).toBe(200);
  });

  it("holds a new member's first question's new tag from the tag list and its page until approved", async () => {
    const member = await registerUser(t.app);
    const reader = await registerUser(t.app);
    const tag = `newq${Date.now().toString(36)}`;
    expect(await listedTag(reader, tag)).toBeUndefined();
    const qid = (await ask(member, tag))._id;
    expect(await listedTag(reader, tag)).toBeUndefined();
    expect((await call(reader, 'GET', `/api/tag/getTagByName/${tag}`)).statusCode).toBe(404);
    await approve('question', qid);
    expect(await listedTag(reader, tag)).toMatchObject({ qcnt: 1 });
    expect((await call(reader, 'GET', `/api/tag/getTagByName/${tag}`)).json()).toMatchObject({ name: tag });
  });

  it("holds an answer's edit the same way; a moderator's edit and edits past the queue are not held", async () => {
    const member = await registerUser(t.app);
    const reader = await registerUser(t.app);
    const qid = (await ask(admin))._id;
    const aid = (await answer(member, qid, 'My first answer'))._id;
    await approve('answer', aid);
    const answersSeen = async (user: TestUser) =>
      (await page(user, qid)).json<Question>().answers.map((row) => [row._id, row.text]);
    expect(await answersSeen(reader)).toEqual([[aid, 'My first answer']]);

    const edited = await call(member, 'PUT', `/api/answer/${aid}`, { text: 'Buy cheap watches here.' });
    expect(edited.json()).toMatchObject({ text: 'Buy cheap watches here.', deleted: true, held: 'approval' });
    expect(await answersSeen(reader)).toEqual([]);
    expect(await queued()).toContainEqual(['answer', aid, 'approval']);
    await approve('answer', aid);
    expect(await answersSeen(reader)).toEqual([[aid, 'Buy cheap watches here.']]);

    // A moderator's edit of the member's answer shows at once.
    const moderated = await call(admin, 'PUT', `/api/answer/${aid}`, { text: 'Tidied by a moderator.' });
    expect(moderated.json<{ held?: string }>().held).toBeUndefined();
    expect(await answersSeen(reader)).toEqual([[aid, 'Tidied by a moderator.']]);
    // An admin's own edits are never held.
    const own = await call(admin, 'PUT', `/api/question/${qid}`, {
      title: 'Edited by its admin',
      text: 'Still seen.',
      tags: [{ name: 'queue', description: '' }],
    });
    expect(own.json<Question>().held).toBeUndefined();
    // Past the queue (two posts let through), the member's edits show at once.
    await approve('question', (await ask(member))._id);
    const again = await call(member, 'PUT', `/api/answer/${aid}`, { text: 'My own words again.' });
    expect(again.json<{ held?: string }>().held).toBeUndefined();
    expect(await answersSeen(reader)).toEqual([[aid, 'My own words again.']]);
  });
});
