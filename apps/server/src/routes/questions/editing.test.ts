import { MESSAGES, SOCKET_EVENTS, type Question, type QuestionSummary, type TagWithCount } from '@porpoise/core';
import type { ResponseOf, SocketPayloads } from '@porpoise/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, showQuestions } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Revision = ResponseOf<'questionRevisions'>[number];

/** Editing with history (docs/product.md section 9), on both databases. */
describe.each(DATABASE_KINDS)('editing on %s', (kind) => {
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

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
  const put = (user: TestUser, url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url, payload, headers: { cookie: user.cookie } });
  const editQuestion = (
    user: TestUser,
    qid: string,
    edit: { title: string; text: string; tags: string[]; reason?: string },
  ) => put(user, `/api/question/${qid}`, { ...edit, tags: edit.tags.map((name) => ({ name, description: '' })) });
  const page = async (qid: string) => (await get(other, `/api/getQuestionById/${qid}`)).json<Question>();
  const revisions = async (path: string) => {
    const response = await get(other, path);
    expect(response.statusCode).toBe(200);
    return response.json<Revision[]>();
  };
  const search = async (words: string) =>
    (await get(other, `/api/getQuestion?search=${encodeURIComponent(words)}`)).json<QuestionSummary[]>();
  const tagList = async (tag: string) =>
    (await get(other, `/api/getQuestion?tag=${tag}&order=newest`)).json<QuestionSummary[]>();
  const tagCount = async (tag: string) =>
    (await get(other, '/api/tag/getTagsWithQuestionNumber')).json<TagWithCount[]>().find((row) => row.name === tag)
      ?.qcnt ?? 0;

  describe('questions', () => {
    it('lets the author edit title, text and tags, keeping the original as revision 1', async () => {
      const oldTag = `old${Date.now().toString(36)}`;
      const newTag = `new${Date.now().toString(36)}`;
      const qid = await askQuestion(t.app, author, {
        title: 'Zebrafish sleep',
        text: 'Original words.',
        tags: [oldTag],
      });
      // Read once, so that the list, the page and the tags are cached before the edit.
      expect((await tagList(oldTag)).map((row) => row._id)).toEqual([qid]);
      expect(await tagCount(oldTag)).toBe(1);
      const [never] = await revisions(`/api/question/${qid}/revisions`);
      expect(never).toMatchObject({ revision: 1, title: 'Zebrafish sleep', text: 'Original words.', reason: null });
      expect((await page(qid)).editedAt).toBeNull();

      const edited = await editQuestion(author, qid, {
        title: 'Octopus dreams',
        text: 'Better words.',
        tags: [newTag],
        reason: 'clearer title',
      });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({
        title: 'Octopus dreams',
        text: 'Better words.',
        tags: [{ name: newTag }],
        editedBy: author.username,
      });
      const shown = await page(qid);
      expect(shown).toMatchObject({ title: 'Octopus dreams', text: 'Better words.', editedBy: author.username });
      expect(shown.editedAt).not.toBeNull();

      const history = await revisions(`/api/question/${qid}/revisions`);
      expect(history.map((revision) => revision.revision)).toEqual([2, 1]);
      expect(history[0]).toMatchObject({
        title: 'Octopus dreams',
        text: 'Better words.',
        tags: [{ name: newTag }],
        editedBy: author.username,
        reason: 'clearer title',
      });
      expect(history[1]).toMatchObject({
        title: 'Zebrafish sleep',
        text: 'Original words.',
        tags: [{ name: oldTag }],
        editedBy: author.username,
        reason: null,
      });

      // Search, tag lists and tag counts follow at once: new words found, old ones not.
      expect((await search('octopus')).map((row) => row._id)).toContain(qid);
      expect((await search('zebrafish')).map((row) => row._id)).not.toContain(qid);
      expect((await search(`[${newTag}]`)).map((row) => row._id)).toEqual([qid]);
      expect(await tagList(oldTag)).toEqual([]);
      expect((await tagList(newTag)).map((row) => row.title)).toEqual(['Octopus dreams']);
      expect(await tagCount(oldTag)).toBe(0);
      expect(await tagCount(newTag)).toBe(1);
    });

    it("refuses another member's edit with 403 and the product's words, changing nothing", async () => {
      const qid = await askQuestion(t.app, author, { title: 'Mine to edit', text: 'Leave it.' });
      const refused = await editQuestion(other, qid, { title: 'Hijacked', text: 'Spam', tags: ['general'] });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: MESSAGES.editOwnOnly, code: 'edit_own_only' });
      expect(await page(qid)).toMatchObject({ title: 'Mine to edit', text: 'Leave it.', editedAt: null });
      expect(await revisions(`/api/question/${qid}/revisions`)).toHaveLength(1);
    });

    it("lets a moderator edit anyone's question, recorded under the moderator's name", async () => {
      const qid = await askQuestion(t.app, author, { title: 'Needs a fix', text: 'Typo hre.' });
      const edited = await editQuestion(moderator, qid, {
        title: 'Needs a fix',
        text: 'Typo here.',
        tags: ['general'],
      });
      expect(edited.statusCode).toBe(200);
      expect(await page(qid)).toMatchObject({ text: 'Typo here.', editedBy: moderator.username });
      const [latest] = await revisions(`/api/question/${qid}/revisions`);
      expect(latest).toMatchObject({ revision: 2, editedBy: moderator.username, reason: null });
    });

    it("applies asking's rules and the reason's length, storing nothing on a refusal", async () => {
      const qid = await askQuestion(t.app, author, { title: 'Rules apply', text: 'Still here.' });
      const cases: Array<[object, string]> = [
        [{ title: ' ', text: 'x', tags: ['general'] }, MESSAGES.titleEmpty],
        [{ title: 'ok', text: '', tags: ['general'] }, MESSAGES.questionTextEmpty],
        [{ title: 'ok', text: 'see [x](http://a.b)', tags: ['general'] }, MESSAGES.invalidHyperlink],
        [{ title: 'ok', text: 'x', tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, MESSAGES.tagsTooMany],
        [{ title: 'ok', text: 'x', tags: ['general'], reason: 'r'.repeat(301) }, MESSAGES.reasonTooLong],
      ];
      for (const [edit, message] of cases) {
        const response = await editQuestion(author, qid, edit as { title: string; text: string; tags: string[] });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: message });
      }
      expect(await page(qid)).toMatchObject({ title: 'Rules apply', text: 'Still here.', editedAt: null });
      expect(await revisions(`/api/question/${qid}/revisions`)).toHaveLength(1);
    });

    it('answers 404 for an unknown question', async () => {
      expect((await editQuestion(author, '999999999', { title: 'a', text: 'b', tags: ['c'] })).statusCode).toBe(404);
      expect((await get(other, '/api/question/999999999/revisions')).statusCode).toBe(404);
    });
  });

  describe('answers', () => {
    it('lets the author and moderators edit an answer, with its history, and refuses anyone else', async () => {
      const qid = await askQuestion(t.app, other);
      const aid = await answerQuestion(t.app, author, qid, 'First draft.');
      const refused = await put(other, `/api/answer/${aid}`, { text: 'Not yours.' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: MESSAGES.editOwnOnly });

      const byAuthor = await put(author, `/api/answer/${aid}`, { text: 'Second draft.', reason: 'fuller' });
      expect(byAuthor.statusCode).toBe(200);
      expect(byAuthor.json()).toMatchObject({ _id: aid, text: 'Second draft.', editedBy: author.username });
      const byModerator = await put(moderator, `/api/answer/${aid}`, { text: 'Third draft.' });
      expect(byModerator.statusCode).toBe(200);

      const shown = (await page(qid)).answers.find((answer) => answer._id === aid);
      expect(shown).toMatchObject({ text: 'Third draft.', editedBy: moderator.username });
      const history = await revisions(`/api/answer/${aid}/revisions`);
      expect(history).toEqual([
        {
          revision: 3,
          text: 'Third draft.',
          editedBy: moderator.username,
          editedAt: expect.any(String) as unknown,
          reason: null,
        },
        {
          revision: 2,
          text: 'Second draft.',
          editedBy: author.username,
          editedAt: expect.any(String) as unknown,
          reason: 'fuller',
        },
        {
          revision: 1,
          text: 'First draft.',
          editedBy: author.username,
          editedAt: expect.any(String) as unknown,
          reason: null,
        },
      ]);
      const one = await get(author, `/api/answer/${aid}`);
      expect(one.json()).toMatchObject({ _id: aid, qid, text: 'Third draft.' });

      const empty = await put(author, `/api/answer/${aid}`, { text: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json()).toMatchObject({ error: MESSAGES.answerTextEmpty });
      expect((await get(author, '/api/answer/999999999')).statusCode).toBe(404);
    });
  });

  describe('live', () => {
    it('sends an edited question to the sockets showing it, and an edited answer as answerUpdate', async () => {
      const qid = await askQuestion(t.app, author, { title: 'Live edit', text: 'Before.' });
      const aid = await answerQuestion(t.app, author, qid, 'Answer before.');
      const watching = openSocket(t.url, { cookie: other.cookie });
      try {
        await connected(watching);
        await showQuestions(watching, [qid]);
        const edit = nextEvent<SocketPayloads['questionEditUpdate']>(watching, SOCKET_EVENTS.questionEditUpdate);
        const row = nextEvent<SocketPayloads['questionUpdate']>(watching, SOCKET_EVENTS.questionUpdate);
        await editQuestion(author, qid, { title: 'Live edit, better', text: 'After.', tags: ['general'] });
        expect(await edit).toMatchObject({
          qid,
          title: 'Live edit, better',
          text: 'After.',
          editedBy: author.username,
        });
        expect(await row).toMatchObject({ _id: qid, title: 'Live edit, better' });

        const answer = nextEvent<SocketPayloads['answerUpdate']>(watching, SOCKET_EVENTS.answerUpdate);
        await put(author, `/api/answer/${aid}`, { text: 'Answer after.' });
        expect(await answer).toMatchObject({
          qid,
          answer: { _id: aid, text: 'Answer after.', editedBy: author.username },
        });
      } finally {
        watching.close();
      }
    });
  });
});
