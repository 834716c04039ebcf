import { MESSAGES, SOCKET_EVENTS, type Question, type QuestionSummary, type TagWithCount } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresDatabase, DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, type Call, callAs, registerUser, type TestUser } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll, showQuestions } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** Deleting, undeleting, closing and reopening (docs/product.md section 9), on both databases. */
describe.each(DATABASE_KINDS)('deleting and closing on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let author: TestUser;
  let other: TestUser;
  let moderator: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
    author = await registerUser(t.app);
    other = await registerUser(t.app);
    moderator = await registerUser(t.app);
    const promoted = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${moderator.username}/role`,
      payload: { role: 'moderator' },
      headers: { cookie: admin.cookie },
    });
    expect(promoted.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const get = (user: TestUser, url: string) => call(user, 'GET', url);
  const remove = (user: TestUser, post: 'question' | 'answer' | 'comment', id: string) =>
    call(user, 'DELETE', `/api/${post}/${id}`);
  const undelete = (user: TestUser, post: 'question' | 'answer' | 'comment', id: string) =>
    call(user, 'POST', `/api/${post}/${id}/undelete`);
  const pageOf = async (user: TestUser, qid: string) => {
    const response = await get(user, `/api/getQuestionById/${qid}`);
    return { status: response.statusCode, body: response.json<Question & { error?: string }>() };
  };
  const ids = (rows: QuestionSummary[]) => rows.map((row) => row._id);
  const list = async (query: string) => {
    const response = await get(other, `/api/getQuestion?${query}`);
    return { rows: response.json<QuestionSummary[]>(), total: Number(response.headers['x-total-count']) };
  };
  const listedTag = async (tag: string) =>
    (await get(other, '/api/tag/getTagsWithQuestionNumber')).json<TagWithCount[]>().find((row) => row.name === tag);
  const tagCount = async (tag: string) => (await listedTag(tag))?.qcnt ?? 0;
  const comment = async (user: TestUser, type: 'question' | 'answer', id: string, text: string) => {
    const response = await call(user, 'POST', '/api/comment/addComment', { id, type, comment: { text } });
    return response;
  };

  describe('questions', () => {
    it('takes a deleted question out of every list, search, total, tag count and profile at once, and back', async () => {
      const tag = `del${Date.now().toString(36)}`;
      const word = `quokka${Date.now().toString(36)}`;
      const qid = await askQuestion(t.app, author, { title: `About ${word}`, tags: [tag] });
      // Read first, so that the lists, the page and the tags are cached before the delete.
      const before = {
        newest: await list('order=newest'),
        unanswered: await list('order=unanswered'),
      };
      expect(ids(before.newest.rows)).toContain(qid);
      expect(ids((await list(`tag=${tag}&order=newest`)).rows)).toEqual([qid]);
      expect(await tagCount(tag)).toBe(1);
      expect((await pageOf(other, qid)).status).toBe(200);

      const deleted = await remove(author, 'question', qid);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ _id: qid, deleted: true });

      for (const order of ['newest', 'unanswered', 'active', 'mostViewed']) {
        expect(ids((await list(`order=${order}`)).rows)).not.toContain(qid);
        expect((await list(`tag=${tag}&order=${order}`)).rows).toEqual([]);
      }
      expect((await list('order=newest')).total).toBe(before.newest.total - 1);
      expect((await list('order=unanswered')).total).toBe(before.unanswered.total - 1);
      expect((await list(`tag=${tag}&order=unanswered`)).total).toBe(0);
      expect(ids((await list(`search=${word}`)).rows)).toEqual([]);
      expect(ids((await list(`search=[${tag}]`)).rows)).toEqual([]);
      expect(await tagCount(tag)).toBe(0);
      // Its tag, carried by no shown question, leaves the tag list and its page (docs/product.md section 10).
      expect(await listedTag(tag)).toBeUndefined();
      const tagPage = await get(other, `/api/tag/getTagByName/${tag}`);
      expect([tagPage.statusCode, tagPage.json<{ error: string }>().error]).toEqual([404, `Tag not found: ${tag}`]);
      const profile = await get(other, `/api/profile/getQuestions?username=${author.username}`);
      expect(ids(profile.json<QuestionSummary[]>())).not.toContain(qid);

      // Its page: 404 to everyone else; its author and moderators see it, marked.
      expect(await pageOf(other, qid)).toEqual({
        status: 404,
        body: { error: 'Question not found', code: 'not_found' },
      });
      expect((await get(other, `/api/question/${qid}/answers`)).statusCode).toBe(404);
      expect((await get(other, `/api/question/${qid}/revisions`)).statusCode).toBe(404);
      expect((await pageOf(author, qid)).body).toMatchObject({ _id: qid, deleted: true });
      expect((await pageOf(moderator, qid)).body).toMatchObject({ _id: qid, deleted: true });
      // Nobody votes on, answers or comments on a deleted question.
      expect((await call(other, 'POST', '/api/upvoteQuestion', { qid })).statusCode).toBe(404);
      const answering = await call(other, 'POST', '/api/answer/addAnswer', { qid, ans: { text: 'Late.' } });
      expect(answering.statusCode).toBe(404);
      expect((await comment(other, 'question', qid, 'Late comment')).statusCode).toBe(404);
      // Its author may not edit it while deleted; anyone else is told it is not there.
      const edit = { title: 'x', text: 'y', tags: [{ name: tag, description: '' }] };
      expect((await call(other, 'PUT', `/api/question/${qid}`, edit)).statusCode).toBe(404);
      const ownEdit = await call(author, 'PUT', `/api/question/${qid}`, edit);
      expect(ownEdit.statusCode).toBe(400);
      expect(ownEdit.json()).toMatchObject({ error: MESSAGES.deletedNotEditable });
      // Deleting it again changes nothing; another member cannot undelete it.
      expect((await remove(author, 'question', qid)).json()).toEqual({ _id: qid, deleted: true });
      expect((await undelete(other, 'question', qid)).statusCode).toBe(404);
      expect((await list('order=newest')).total).toBe(before.newest.total - 1);

      const back = await undelete(author, 'question', qid);
      expect(back.json()).toEqual({ _id: qid, deleted: false });
      expect(ids((await list('order=newest')).rows)).toContain(qid);
      expect((await list('order=newest')).total).toBe(before.newest.total);
      expect((await list('order=unanswered')).total).toBe(before.unanswered.total);
      expect(ids((await list(`tag=${tag}&order=unanswered`)).rows)).toEqual([qid]);
      expect(ids((await list(`search=${word}`)).rows)).toEqual([qid]);
      expect(await tagCount(tag)).toBe(1);
      expect((await get(other, `/api/tag/getTagByName/${tag}`)).statusCode).toBe(200);
      const shown = await pageOf(other, qid);
      expect(shown.status).toBe(200);
      expect(shown.body.deleted).toBeUndefined();
    });

    it('refuses a question with answers to its author, with the product words; a moderator deletes it', async () => {
      const qid = await askQuestion(t.app, author);
      await answerQuestion(t.app, other, qid);
      const refused = await remove(author, 'question', qid);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: MESSAGES.questionHasAnswers, code: 'question_has_answers' });
      expect((await pageOf(other, qid)).status).toBe(200);

      const byModerator = await remove(moderator, 'question', qid);
      expect(byModerator.statusCode).toBe(200);
      expect((await pageOf(other, qid)).status).toBe(404);
      // Its answers take no votes while it is deleted.
      const [answer] = (await get(moderator, `/api/question/${qid}/answers`)).json<Array<{ _id: string }>>();
      expect((await call(other, 'POST', '/api/answer/upvoteAnswer', { aid: answer!._id })).statusCode).toBe(404);
      // The answers of a deleted question leave their authors' profiles too.
      const answers = await get(other, `/api/profile/getAnswers?username=${other.username}`);
      expect(answers.json<Array<{ qid: string }>>().map((row) => row.qid)).not.toContain(qid);
    });

    it("refuses another member's delete with 403, changing nothing", async () => {
      const qid = await askQuestion(t.app, author);
      const refused = await remove(other, 'question', qid);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: MESSAGES.deleteOwnOnly, code: 'delete_own_only' });
      expect((await pageOf(other, qid)).status).toBe(200);
      expect((await remove(other, 'question', '999999999')).statusCode).toBe(404);
    });
  });

  describe('answers and comments', () => {
    it('hides a deleted answer from the page, the count and the profile, shows it marked to its author and moderators', async () => {
      const qid = await askQuestion(t.app, author);
      const aid = await answerQuestion(t.app, other, qid, 'A secret answer text.');
      const accepted = await call(author, 'POST', '/api/answer/acceptAnswer', { qid, aid });
      expect(accepted.statusCode).toBe(200);
      expect((await pageOf(author, qid)).body.answerCount).toBe(1);
      expect(ids((await list('order=unanswered')).rows)).not.toContain(qid);

      const refused = await remove(author, 'answer', aid);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: MESSAGES.deleteOwnOnly });

      expect((await remove(other, 'answer', aid)).json()).toEqual({ _id: aid, deleted: true });
      const seenByAsker = (await pageOf(author, qid)).body;
      expect(seenByAsker.answers).toEqual([]);
      expect(seenByAsker.answerCount).toBe(0);
      // A deleted accepted answer is accepted no longer.
      expect(seenByAsker.acceptedAnswer).toBeNull();
      expect(ids((await list('order=unanswered')).rows)).toContain(qid);
      const profile = await get(author, `/api/profile/getAnswers?username=${other.username}`);
      expect(profile.json<Array<{ _id: string }>>().map((row) => row._id)).not.toContain(aid);
      expect((await get(author, `/api/question/${qid}/answers`)).json()).toEqual([]);
      expect((await get(author, `/api/answer/${aid}`)).statusCode).toBe(404);
      expect((await get(author, `/api/answer/${aid}/revisions`)).statusCode).toBe(404);
      // Its author and moderators see it, marked, on the page and the answers' pages.
      for (const seer of [other, moderator]) {
        const page = (await pageOf(seer, qid)).body;
        expect(page.answers).toMatchObject([{ _id: aid, text: 'A secret answer text.', deleted: true }]);
        expect((await get(seer, `/api/question/${qid}/answers`)).json()).toMatchObject([{ _id: aid, deleted: true }]);
      }
      // Their views are their own: the page everyone else is served still has no deleted answer.
      expect((await pageOf(author, qid)).body.answers).toEqual([]);
      // A deleted answer takes no votes, comments, accepts or edits.
      expect((await call(author, 'POST', '/api/answer/upvoteAnswer', { aid })).statusCode).toBe(404);
      expect((await comment(author, 'answer', aid, 'On a deleted answer')).statusCode).toBe(404);
      expect((await call(author, 'POST', '/api/answer/acceptAnswer', { qid, aid })).statusCode).toBe(400);
      expect((await call(other, 'PUT', `/api/answer/${aid}`, { text: 'New text' })).statusCode).toBe(400);

      expect((await undelete(moderator, 'answer', aid)).json()).toEqual({ _id: aid, deleted: false });
      const restored = (await pageOf(author, qid)).body;
      expect(restored.answerCount).toBe(1);
      expect(restored.answers).toMatchObject([{ _id: aid, text: 'A secret answer text.' }]);
      expect(restored.answers[0]?.deleted).toBeUndefined();
      expect(ids((await list('order=unanswered')).rows)).not.toContain(qid);
    });

    it('hides a deleted comment from everyone but its author and moderators', async () => {
      const qid = await askQuestion(t.app, author);
      const added = await comment(other, 'question', qid, 'A rude comment.');
      const cid = added.json<{ _id: string }>()._id;
      expect((await pageOf(author, qid)).body.comments.map((c) => c._id)).toEqual([cid]);
      expect((await remove(author, 'comment', cid)).statusCode).toBe(403);
      expect((await remove(moderator, 'comment', cid)).json()).toEqual({ _id: cid, deleted: true });
      expect((await pageOf(author, qid)).body.comments).toEqual([]);
      expect((await pageOf(other, qid)).body.comments).toMatchObject([{ _id: cid, deleted: true }]);
      expect((await undelete(author, 'comment', cid)).statusCode).toBe(404);
      // What a moderator deleted, its author cannot bring back; a moderator can.
      const byAuthor = await undelete(other, 'comment', cid);
      expect(byAuthor.statusCode).toBe(403);
      expect(byAuthor.json()).toMatchObject({ error: MESSAGES.undeleteModerated });
      expect((await undelete(moderator, 'comment', cid)).json()).toEqual({ _id: cid, deleted: false });
      expect((await pageOf(author, qid)).body.comments).toMatchObject([{ _id: cid, text: 'A rude comment.' }]);
      // An author undeletes what they deleted themselves.
      expect((await remove(other, 'comment', cid)).statusCode).toBe(200);
      expect((await undelete(other, 'comment', cid)).json()).toEqual({ _id: cid, deleted: false });
    });
  });

  describe('live', () => {
    it("sends deletions without content, and never a deleted post's content to a socket", async () => {
      const qid = await askQuestion(t.app, author);
      const watching = openSocket(t.url, { cookie: author.cookie });
      try {
        await connected(watching);
        await showQuestions(watching, [qid]);
        // A broadcast emitted before the socket joined may still reach it after (published
        // through PostgreSQL, it reaches the sockets once its NOTIFY returned): the socket hears
        // the answer and the comment come, and records from the last of them on.
        const commented = nextEvent(watching, SOCKET_EVENTS.commentUpdate);
        const aid = await answerQuestion(t.app, other, qid, 'Words only its author may see now.');
        const cid = (await comment(author, 'question', qid, 'A comment under it')).json<{ _id: string }>()._id;
        await commented;
        const seen = recordAll(watching);
        const gone = nextEvent<SocketPayloads['deleteUpdate']>(watching, SOCKET_EVENTS.deleteUpdate);
        await remove(other, 'answer', aid);
        expect(await gone).toEqual({ qid, post: 'answer', id: aid, deleted: true });
        // Its author edits, votes and comments while it is deleted: all refused, nothing sent.
        await call(other, 'PUT', `/api/answer/${aid}`, { text: 'Words only its author may see now, edited.' });
        await call(other, 'POST', '/api/answer/upvoteAnswer', { aid });
        await comment(other, 'answer', aid, 'A comment on it');
        // Something the socket does hear, after all of them: everything before it has arrived.
        const after = nextEvent(watching, SOCKET_EVENTS.voteUpdate);
        await call(other, 'POST', '/api/upvoteQuestion', { qid });
        await after;
        expect(JSON.stringify(seen)).not.toContain('Words only its author may see now');

        const back = nextEvent<SocketPayloads['answerUpdate']>(watching, SOCKET_EVENTS.answerUpdate);
        await undelete(other, 'answer', aid);
        expect(await back).toMatchObject({ qid, answer: { _id: aid, text: 'Words only its author may see now.' } });
        expect(
          seen.some(
            (event) =>
              event.event === SOCKET_EVENTS.deleteUpdate && JSON.stringify(event.payload).includes('"deleted":false'),
          ),
        ).toBe(true);

        const questionGone = nextEvent<SocketPayloads['deleteUpdate']>(watching, SOCKET_EVENTS.deleteUpdate);
        await remove(moderator, 'question', qid);
        expect(await questionGone).toEqual({ qid, post: 'question', id: qid, deleted: true });

        // Under the deleted question: a moderator edits its answer, its comment is deleted and
        // undeleted by its author; a socket of someone who may not see them hears none of it.
        const stranger = openSocket(t.url, { cookie: other.cookie });
        try {
          await connected(stranger);
          await showQuestions(stranger, [qid]);
          const heard = recordAll(stranger);
          expect(
            (await call(moderator, 'PUT', `/api/answer/${aid}`, { text: 'Secret edit under a deleted question.' }))
              .statusCode,
          ).toBe(200);
          expect((await remove(author, 'comment', cid)).statusCode).toBe(200);
          expect((await undelete(author, 'comment', cid)).statusCode).toBe(200);
          // Something this socket hears after them: everything before it has arrived.
          const back = nextEvent(stranger, SOCKET_EVENTS.deleteUpdate);
          await undelete(moderator, 'question', qid);
          await back;
          expect(JSON.stringify(heard)).not.toContain('Secret edit');
          expect(JSON.stringify(heard)).not.toContain('A comment under it');
        } finally {
          stranger.close();
        }
      } finally {
        watching.close();
      }
    });
  });

  describe('closing', () => {
    it('lets moderators close with a reason, refuses new answers, shows it live, and reopens', async () => {
      const qid = await askQuestion(t.app, author, { title: 'Closable question' });
      await answerQuestion(t.app, other, qid, 'Kept answer.');
      const watching = openSocket(t.url, { cookie: other.cookie });
      try {
        await connected(watching);
        await showQuestions(watching, [qid]);
        for (const user of [author, other]) {
          const refused = await call(user, 'POST', `/api/question/${qid}/close`, { reason: 'off-topic' });
          expect(refused.statusCode).toBe(403);
          expect(refused.json()).toEqual({ error: MESSAGES.onlyModeratorsClose, code: 'only_moderators_close' });
        }
        expect((await pageOf(other, qid)).body.closed).toBeNull();

        const live = nextEvent<SocketPayloads['closeUpdate']>(watching, SOCKET_EVENTS.closeUpdate);
        const closed = await call(moderator, 'POST', `/api/question/${qid}/close`, { reason: 'off-topic' });
        expect(closed.statusCode).toBe(200);
        const closing = { reason: 'off-topic', duplicateOf: null, closedBy: moderator.username };
        expect(closed.json()).toMatchObject({ qid, closed: closing });
        expect(await live).toMatchObject({ qid, closed: closing });
        const page = (await pageOf(other, qid)).body;
        expect(page.closed).toMatchObject(closing);
        expect(page.answers).toHaveLength(1);

        const answering = await call(other, 'POST', '/api/answer/addAnswer', { qid, ans: { text: 'Too late.' } });
        expect(answering.statusCode).toBe(400);
        expect(answering.json()).toEqual({ error: MESSAGES.questionClosed, code: 'question_closed' });
        expect((await pageOf(other, qid)).body.answerCount).toBe(1);

        const reopenedLive = nextEvent<SocketPayloads['closeUpdate']>(watching, SOCKET_EVENTS.closeUpdate);
        expect((await call(author, 'POST', `/api/question/${qid}/reopen`)).statusCode).toBe(403);
        const reopened = await call(admin, 'POST', `/api/question/${qid}/reopen`);
        expect(reopened.json()).toEqual({ qid, closed: null });
        expect(await reopenedLive).toEqual({ qid, closed: null });
        expect(
          (await call(other, 'POST', '/api/answer/addAnswer', { qid, ans: { text: 'Now fine.' } })).statusCode,
        ).toBe(200);
      } finally {
        watching.close();
      }
    });

    it('closes a duplicate with its original, checked', async () => {
      const original = await askQuestion(t.app, author, { title: 'The original question' });
      const qid = await askQuestion(t.app, other, { title: 'Asked again' });
      const close = (payload: object) => call(moderator, 'POST', `/api/question/${qid}/close`, payload);
      const cases: Array<[object, string]> = [
        [{ reason: 'duplicate' }, MESSAGES.duplicateNeeded],
        [{ reason: 'duplicate', duplicateOf: qid }, MESSAGES.duplicateOfItself],
        [{ reason: 'duplicate', duplicateOf: '999999999' }, MESSAGES.duplicateNotFound],
        [{ reason: 'rude' }, 'Reason must be one of duplicate, off-topic, needs details'],
      ];
      for (const [payload, message] of cases) {
        const refused = await close(payload);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: message });
      }
      expect((await pageOf(other, qid)).body.closed).toBeNull();
      const closed = await close({ reason: 'duplicate', duplicateOf: original });
      expect(closed.json()).toMatchObject({
        closed: { reason: 'duplicate', duplicateOf: { _id: original, title: 'The original question' } },
      });
      expect((await pageOf(author, qid)).body.closed).toMatchObject({
        reason: 'duplicate',
        duplicateOf: { _id: original, title: 'The original question' },
      });
    });
  });
});

/**
 * An answer or a comment sent while a delete holds its question (PostgreSQL: two writers at
 * once) waits for it and is then refused, instead of landing on the deleted question and
 * counting it twice in the unanswered total.
 */
describe('writing while a question is being deleted, on postgres', () => {
  let database: { url: string; drop: () => Promise<void> };
  let t: TestApp;
  let deleting: pg.Client;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    t = await startTestApp('postgres', { databaseUrl: database.url });
    deleting = new pg.Client({ connectionString: database.url });
    await deleting.connect();
  });
  afterAll(async () => {
    await deleting.end();
    await t.close();
    await database.drop();
  });

  /** Resolves once `count` other backends wait on a lock (the statistics read afresh: this client is in a transaction). */
  async function waitingOnLocks(count: number): Promise<void> {
    for (;;) {
      await deleting.query('select pg_stat_clear_snapshot()');
      const { rows } = await deleting.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and pid <> pg_backend_pid() and datname = current_database()`,
      );
      if (rows[0]!.n >= count) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The delete command's changes, made by hand in an open transaction that holds the row. */
  async function beginDeleting(qid: string): Promise<void> {
    await deleting.query('begin');
    await deleting.query('select id from questions where id = $1 for update', [qid]);
    await deleting.query('update questions set deleted_at = now() where id = $1', [qid]);
    await deleting.query('update question_tags set deleted = true where question_id = $1', [qid]);
    await deleting.query(
      `update tags set question_count = question_count - 1
        where id in (select tag_id from question_tags where question_id = $1)`,
      [qid],
    );
    await deleting.query('update question_counters set total = total - 1, unanswered = unanswered - 1');
  }

  const counters = async () =>
    (
      await deleting.query<{ unanswered: number; counted: number }>(
        `select unanswered, (select count(*)::int from questions where answer_count = 0 and deleted_at is null) as counted
          from question_counters`,
      )
    ).rows[0]!;

  it('refuses the answer and the comment that waited, storing neither, the counts kept', async () => {
    const author = await registerUser(t.app);
    const other = await registerUser(t.app);
    const qid = await askQuestion(t.app, author);
    await beginDeleting(qid);
    // Started now (an inject runs when awaited): both go to the database while the delete holds the row.
    const answering = Promise.resolve(
      t.app.inject({
        method: 'POST',
        url: '/api/answer/addAnswer',
        headers: { cookie: other.cookie },
        payload: { qid, ans: { text: 'Racing the delete.' } },
      }),
    );
    const commenting = Promise.resolve(
      t.app.inject({
        method: 'POST',
        url: '/api/comment/addComment',
        headers: { cookie: other.cookie },
        payload: { id: qid, type: 'question', comment: { text: 'Racing too.' } },
      }),
    );
    await waitingOnLocks(2);
    await deleting.query('commit');
    expect((await answering).statusCode).toBe(404);
    expect((await commenting).statusCode).toBe(404);
    const stored = await deleting.query<{ answers: number; comments: number }>(
      `select (select count(*)::int from answers where question_id = $1) as answers,
        (select count(*)::int from comments where question_id = $1) as comments`,
      [qid],
    );
    expect(stored.rows[0]).toEqual({ answers: 0, comments: 0 });
    const { unanswered, counted } = await counters();
    expect(unanswered).toBe(counted);
  });
});
