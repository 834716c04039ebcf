import { MESSAGES, SOCKET_EVENTS, type Question, type QuestionSummary } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, uniqueName, type TestUser } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, showQuestions } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('questions, answers, comments, votes and tags on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
  const post = (user: TestUser | null, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user ? { cookie: user.cookie } : {}, payload: payload as object });
  const list = async (user: TestUser, query: string) => {
    const response = await get(user, `/api/getQuestion?${query}`);
    expect(response.statusCode).toBe(200);
    return { questions: response.json<QuestionSummary[]>(), total: Number(response.headers['x-total-count']) };
  };
  const count = async (table: string) =>
    Number((await queryRows<{ n: number }>(t.app.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]?.n);
  const question = async (qid: string, user = alice) =>
    (await get(user, `/api/getQuestionById/${qid}`)).json<Question>();

  describe('asking', () => {
    const valid = () => ({
      title: 'How do I parse JSON?',
      text: 'Details here.',
      tags: [{ name: 'json', description: '' }],
    });

    it('creates the question with new tags described as user added', async () => {
      const tag = uniqueName('t').slice(0, 20);
      const response = await post(alice, '/api/addQuestion', {
        ...valid(),
        tags: [{ name: tag.toUpperCase(), description: 'mine' }],
        askedBy: alice.username,
      });
      expect(response.statusCode).toBe(200);
      const created = response.json<Question>();
      expect(created).toMatchObject({
        title: 'How do I parse JSON?',
        askedBy: alice.username,
        answers: [],
        upVotes: [],
        downVotes: [],
        views: [],
        comments: [],
      });
      expect(created.tags).toEqual([{ name: tag, description: 'user added tag' }]);
      expect((await get(alice, `/api/tag/getTagByName/${tag}`)).json()).toEqual({
        name: tag,
        description: 'user added tag',
      });
    });

    it.each([
      ['an empty title', { title: '  ' }, MESSAGES.titleEmpty],
      ['a 101-character title', { title: 'x'.repeat(101) }, MESSAGES.titleTooLong],
      ['empty text', { text: '' }, MESSAGES.questionTextEmpty],
      ['a malformed link', { text: 'see [here](http://insecure.example)' }, MESSAGES.invalidHyperlink],
      ['no tags', { tags: [] }, MESSAGES.tagsTooFew],
      ['six tags', { tags: ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ name })) }, MESSAGES.tagsTooMany],
      ['a 21-character tag', { tags: [{ name: 'x'.repeat(21) }] }, MESSAGES.tagTooLong],
      [
        'text over 30,000 characters',
        { text: 'x'.repeat(30_001) },
        'Question text cannot be more than 30000 characters',
      ],
    ])('refuses %s with 400 and its message, storing nothing', async (_label, override, message) => {
      const before = await count('questions');
      const response = await post(alice, '/api/addQuestion', { ...valid(), ...override });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, code: expect.any(String) as string });
      expect(await count('questions')).toBe(before);
    });

    it("refuses a question asked in someone else's name with 403, storing nothing", async () => {
      const before = await count('questions');
      const response = await post(alice, '/api/addQuestion', { ...valid(), askedBy: bob.username });
      expect(response.statusCode).toBe(403);
      expect(await count('questions')).toBe(before);
    });

    it('refuses a visitor with no session with 401', async () => {
      const response = await post(null, '/api/addQuestion', valid());
      expect(response.statusCode).toBe(401);
      expect((await t.app.inject('/api/getQuestion')).statusCode).toBe(401);
    });

    it('never stores counters sent by the client', async () => {
      const response = await post(alice, '/api/addQuestion', {
        ...valid(),
        upVotes: ['x', 'y'],
        views: ['z'],
        answers: [{ text: 'fake' }],
      });
      expect(response.json()).toMatchObject({ upVotes: [], views: [], answers: [] });
    });
  });

  describe('the list', () => {
    let tag: string;
    let ids: { old: string; middle: string; recent: string };

    beforeAll(async () => {
      tag = uniqueName('l').slice(0, 20);
      const old = await askQuestion(t.app, alice, {
        title: 'Oldest porpoise question',
        text: 'About dolphins',
        tags: [tag, 'marine'],
      });
      const middle = await askQuestion(t.app, bob, {
        title: 'Middle question',
        text: 'About whales and krill',
        tags: [tag],
      });
      const recent = await askQuestion(t.app, alice, {
        title: 'Recent question',
        text: 'Nothing to see',
        tags: [tag, 'fresh'],
      });
      ids = { old, middle, recent };
      await answerQuestion(t.app, bob, old);
      await question(middle, alice);
      await question(middle, bob);
      await question(recent, bob);
    });

    const idsOf = (questions: QuestionSummary[]) => questions.map((q) => q._id);

    it('orders newest, unanswered, active and mostViewed as docs/product.md says', async () => {
      expect(idsOf((await list(alice, `tag=${tag}&order=newest`)).questions)).toEqual([
        ids.recent,
        ids.middle,
        ids.old,
      ]);
      expect(idsOf((await list(alice, `tag=${tag}&order=unanswered`)).questions)).toEqual([ids.recent, ids.middle]);
      expect(idsOf((await list(alice, `tag=${tag}&order=active`)).questions)).toEqual([
        ids.old,
        ids.recent,
        ids.middle,
      ]);
      expect(idsOf((await list(alice, `tag=${tag}&order=mostViewed`)).questions)).toEqual([
        ids.middle,
        ids.recent,
        ids.old,
      ]);
    });

    it("totals a tag's list from the tag's kept count, and its unanswered ones by counting", async () => {
      for (const order of ['newest', 'active', 'mostViewed', 'unanswered']) {
        expect((await list(alice, `tag=${tag.toUpperCase()}&order=${order}&limit=1`)).total, order).toBe(
          order === 'unanswered' ? 2 : 3,
        );
      }
      expect((await list(alice, `tag=no-such-tag`)).total).toBe(0);
    });

    it('returns summaries: counts and tags, no answer bodies or comments', async () => {
      const { questions } = await list(alice, `tag=${tag}&order=active`);
      const first = questions[0]!;
      expect(Object.keys(first).sort()).toEqual(
        [
          '_id',
          'acceptedAnswer',
          'answerCount',
          'askDateTime',
          'askedBy',
          'lastActivity',
          'tags',
          'title',
          'viewCount',
          'voteCount',
        ].sort(),
      );
      expect(first).toMatchObject({ answerCount: 1, askedBy: alice.username, title: 'Oldest porpoise question' });
      expect(first.tags.map((t) => t.name).sort()).toEqual(['marine', tag].sort());
    });

    it("shows a question's tags alike on its first read and on later ones (kept in memory)", async () => {
      for (let read = 0; read < 2; read++) {
        const { questions } = await list(alice, 'search=[fresh]');
        expect(questions.map((q) => q.tags.map((tag) => tag.name).sort())).toEqual([['fresh', tag].sort()]);
      }
    });

    it('pages with limit and offset and reports the total in X-Total-Count', async () => {
      const page1 = await list(alice, `tag=${tag}&limit=2`);
      const page2 = await list(alice, `tag=${tag}&limit=2&offset=2`);
      expect(page1.total).toBe(3);
      expect(page2.total).toBe(3);
      expect(idsOf([...page1.questions, ...page2.questions])).toEqual([ids.recent, ids.middle, ids.old]);
    });

    it('keeps the unfiltered totals exact as questions are asked and answered', async () => {
      const [all, unanswered] = [
        (await list(alice, 'limit=1')).total,
        (await list(alice, 'order=unanswered&limit=1')).total,
      ];
      const [rowsAll] = await queryRows<{ n: number }>(t.app.db, sql`select count(*)::int as n from questions`);
      expect(all).toBe(rowsAll!.n);
      const qid = await askQuestion(t.app, bob);
      expect((await list(alice, 'limit=1')).total).toBe(all + 1);
      expect((await list(alice, 'order=unanswered&limit=1')).total).toBe(unanswered + 1);
      await answerQuestion(t.app, alice, qid);
      await answerQuestion(t.app, alice, qid);
      expect((await list(alice, 'order=unanswered&limit=1')).total).toBe(unanswered);
      expect((await list(alice, 'order=active&limit=1')).total).toBe(all + 1);
    });

    it('searches whole words in title and text, case-insensitively, matching any word', async () => {
      expect(idsOf((await list(alice, 'search=PORPOISE')).questions)).toEqual([ids.old]);
      expect(idsOf((await list(alice, 'search=whales%20dolphins')).questions).sort()).toEqual(
        [ids.old, ids.middle].sort(),
      );
      expect((await list(alice, 'search=porp')).questions).toEqual([]);
    });

    it("pages a search's few matches, and still counts them past the last page", async () => {
      const first = await list(alice, 'search=whales%20dolphins&limit=1');
      const second = await list(alice, 'search=whales%20dolphins&limit=1&offset=1');
      expect([first.total, second.total]).toEqual([2, 2]);
      expect(idsOf([...first.questions, ...second.questions]).sort()).toEqual([ids.old, ids.middle].sort());
      expect(await list(alice, 'search=whales%20dolphins&offset=10')).toEqual({ questions: [], total: 2 });
    });

    it('searches [tags] and words together, matching any of them', async () => {
      expect(idsOf((await list(alice, 'search=[fresh]')).questions)).toEqual([ids.recent]);
      expect(idsOf((await list(alice, `search=${encodeURIComponent('[fresh] krill')}`)).questions).sort()).toEqual(
        [ids.recent, ids.middle].sort(),
      );
    });

    it("matches a [tag] by the question's tags only, never by text naming it", async () => {
      const [fresh] = await queryRows<{ id: number }>(t.app.db, sql`select id from tags where name = 'fresh'`);
      const lexeme = `[t${Number(fresh!.id)}]`;
      const mimic = await askQuestion(t.app, bob, {
        title: `Not tagged fresh ${lexeme}`,
        text: `fresh [fresh] ${lexeme} t${Number(fresh!.id)}`,
        tags: ['mimicry'],
      });
      expect(idsOf((await list(alice, 'search=[fresh]')).questions)).toEqual([ids.recent]);
      expect(idsOf((await list(alice, 'search=fresh')).questions)).toEqual([mimic]);
      // "[t<id>]" in a search is a tag named t<id> (none), and t<id> a word in the mimic's text.
      expect((await list(alice, `search=${encodeURIComponent(lexeme)}`)).total).toBe(0);
      expect(idsOf((await list(alice, `search=t${Number(fresh!.id)}`)).questions)).toEqual([mimic]);
    });

    it('searches tags whose names hold quotes, backslashes and query operators', async () => {
      const odd = `o'k\\|!&:*(${uniqueName('x').slice(0, 6)}`;
      const qid = await askQuestion(t.app, bob, { title: 'Odd tag', text: 'plain words', tags: [odd] });
      expect(idsOf((await list(alice, `search=${encodeURIComponent(`[${odd}]`)}`)).questions)).toEqual([qid]);
      expect(idsOf((await list(alice, `search=${encodeURIComponent(`[${odd}] krill`)}`)).questions).sort()).toEqual(
        [qid, ids.middle].sort(),
      );
    });

    it('finds nothing for an unknown [tag], and only the words beside it', async () => {
      expect(await list(alice, 'search=[no-such-tag-here]')).toEqual({ questions: [], total: 0 });
      expect(idsOf((await list(alice, `search=${encodeURIComponent('[no-such-tag-here] krill')}`)).questions)).toEqual([
        ids.middle,
      ]);
    });

    it('finds a tag that was unknown at an earlier search once a question carries it', async () => {
      const name = uniqueName('n').slice(0, 20);
      expect((await list(alice, `search=[${name}]`)).total).toBe(0);
      const qid = await askQuestion(t.app, bob, { tags: [name] });
      expect(idsOf((await list(alice, `search=[${name}]`)).questions)).toEqual([qid]);
    });

    it.each(["%' --", '1 OR 1=1', "'; drop table questions; --", '!!!'])(
      'matches SQL-looking search %j literally',
      async (text) => {
        const response = await get(alice, `/api/getQuestion?search=${encodeURIComponent(text)}`);
        expect(response.statusCode).toBe(200);
        expect(Array.isArray(response.json())).toBe(true);
        expect(await count('questions')).toBeGreaterThan(0);
      },
    );

    it.each(['order=sideways', 'limit=0', 'limit=101', 'offset=-1', 'limit=abc'])(
      'refuses a bad query %s with 400',
      async (query) => {
        const response = await get(alice, `/api/getQuestion?${query}`);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toHaveProperty('error');
      },
    );

    it('counts tags', async () => {
      const tags = (await get(alice, '/api/tag/getTagsWithQuestionNumber')).json<
        Array<{ name: string; qcnt: number }>
      >();
      expect(tags.find((t) => t.name === tag)?.qcnt).toBe(3);
      expect(tags.find((t) => t.name === 'fresh')?.qcnt).toBeGreaterThanOrEqual(1);
      expect((await get(alice, '/api/tag/getTagByName/no-such-tag-x')).statusCode).toBe(404);
    });

    // The tags page reads each tag's kept count; askers of the same tags at once (in
    // either order) lock them in one order, so none deadlocks and every count is exact.
    it('keeps every tag count exact under parallel askers of the same tags', async () => {
      const [one, two, three] = [uniqueName('ta'), uniqueName('tb'), uniqueName('tc')];
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          askQuestion(t.app, i % 2 === 0 ? alice : bob, { tags: i % 2 === 0 ? [one, two, three] : [three, two, one] }),
        ),
      );
      const tags = (await get(alice, '/api/tag/getTagsWithQuestionNumber')).json<
        Array<{ name: string; qcnt: number }>
      >();
      for (const name of [one, two, three]) expect(tags.find((row) => row.name === name)?.qcnt).toBe(12);
      const [drift] = await queryRows<{ n: number }>(
        t.app.db,
        sql`select count(*)::int as n from tags tg
          where tg.question_count <> (select count(*) from question_tags qt where qt.tag_id = tg.id)`,
      );
      expect(drift?.n).toBe(0);
    });

    it("lists a user's questions and answers on their profile, and 404 for an unknown user", async () => {
      const questions = (await get(bob, `/api/profile/getQuestions?username=${alice.username}`)).json<
        QuestionSummary[]
      >();
      expect(idsOf(questions)).toEqual(expect.arrayContaining([ids.old, ids.recent]));
      const answers = (await get(alice, `/api/profile/getAnswers?username=${bob.username}`)).json<
        Array<{ qid: string; text: string }>
      >();
      expect(answers.some((a) => a.qid === ids.old)).toBe(true);
      expect((await get(alice, '/api/profile/getQuestions?username=nobody_here_x')).statusCode).toBe(404);
      expect((await get(alice, '/api/profile/getAnswers?username=nobody_here_x')).statusCode).toBe(404);
    });
  });

  describe('the question page', () => {
    it('adds each viewer once', async () => {
      const qid = await askQuestion(t.app, alice);
      await question(qid, bob);
      await question(qid, bob);
      const seen = await question(qid, alice);
      expect(seen.views.sort()).toEqual([alice.username, bob.username].sort());
      const { questions } = await list(alice, 'order=newest&limit=100');
      expect(questions.find((q) => q._id === qid)?.viewCount).toBe(2);
    });

    it('answers 404 for a missing question and 400 for a malformed id', async () => {
      expect((await get(alice, '/api/getQuestionById/999999999')).statusCode).toBe(404);
      for (const bad of ['abc', '1.5', '-3', '1%20OR%201=1'])
        expect((await get(alice, `/api/getQuestionById/${bad}`)).statusCode).toBe(400);
    });

    it("refuses to record a view in someone else's name", async () => {
      const qid = await askQuestion(t.app, alice);
      expect((await get(alice, `/api/getQuestionById/${qid}?username=${bob.username}`)).statusCode).toBe(403);
      expect((await question(qid, alice)).views).toEqual([alice.username]);
    });

    it('adds answers, and comments on the question and on an answer', async () => {
      const qid = await askQuestion(t.app, alice);
      const aid = await answerQuestion(t.app, bob, qid, 'Try [the docs](https://example.com/docs).');
      const onQuestion = await post(bob, '/api/comment/addComment', {
        id: qid,
        type: 'question',
        comment: { text: 'Which version?', commentBy: bob.username },
      });
      const onAnswer = await post(alice, '/api/comment/addComment', {
        id: aid,
        type: 'answer',
        comment: { text: 'Thanks!', commentBy: alice.username },
      });
      expect(onQuestion.statusCode).toBe(200);
      expect(onAnswer.statusCode).toBe(200);
      const page = await question(qid);
      expect(page.comments.map((c) => [c.text, c.commentBy])).toEqual([['Which version?', bob.username]]);
      expect(page.answers).toHaveLength(1);
      expect(page.answers[0]).toMatchObject({
        _id: aid,
        ansBy: bob.username,
        text: 'Try [the docs](https://example.com/docs).',
      });
      expect(page.answers[0]!.comments.map((c) => [c.text, c.commentBy])).toEqual([['Thanks!', alice.username]]);
    });

    it.each([
      [
        'an empty answer',
        '/api/answer/addAnswer',
        (qid: string) => ({ qid, ans: { text: ' ' } }),
        MESSAGES.answerTextEmpty,
      ],
      [
        'a malformed link in an answer',
        '/api/answer/addAnswer',
        (qid: string) => ({ qid, ans: { text: '[x](javascript:alert(1))' } }),
        MESSAGES.invalidHyperlink,
      ],
      [
        'a blank comment',
        '/api/comment/addComment',
        (qid: string) => ({ id: qid, type: 'question', comment: { text: '   ' } }),
        MESSAGES.commentEmpty,
      ],
      [
        'a comment on an unknown kind',
        '/api/comment/addComment',
        (qid: string) => ({ id: qid, type: 'tag', comment: { text: 'hi' } }),
        "type must be 'question' or 'answer'",
      ],
    ])('refuses %s with 400, storing nothing', async (_label, url, payload, message) => {
      const qid = await askQuestion(t.app, alice);
      const [answers, comments] = [await count('answers'), await count('comments')];
      const response = await post(alice, url, payload(qid));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message, code: expect.any(String) as string });
      expect([await count('answers'), await count('comments')]).toEqual([answers, comments]);
    });

    it("refuses answers and comments in someone else's name, and on missing questions", async () => {
      const qid = await askQuestion(t.app, alice);
      const [answers, comments] = [await count('answers'), await count('comments')];
      expect(
        (await post(alice, '/api/answer/addAnswer', { qid, ans: { text: 'x', ansBy: bob.username } })).statusCode,
      ).toBe(403);
      expect(
        (
          await post(alice, '/api/comment/addComment', {
            id: qid,
            type: 'question',
            comment: { text: 'x', commentBy: bob.username },
          })
        ).statusCode,
      ).toBe(403);
      expect((await post(alice, '/api/answer/addAnswer', { qid: '999999999', ans: { text: 'x' } })).statusCode).toBe(
        404,
      );
      expect(
        (await post(alice, '/api/comment/addComment', { id: '999999999', type: 'answer', comment: { text: 'x' } }))
          .statusCode,
      ).toBe(404);
      expect([await count('answers'), await count('comments')]).toEqual([answers, comments]);
    });
  });

  describe('votes', () => {
    const vote = (user: TestUser, direction: 'up' | 'down', qid: string, username = user.username) =>
      post(user, `/api/${direction}voteQuestion`, { qid, username });

    it('toggles in both directions and moves a vote', async () => {
      const qid = await askQuestion(t.app, alice);
      expect((await vote(bob, 'up', qid)).json()).toEqual({ qid, upVotes: [bob.username], downVotes: [] });
      expect((await vote(bob, 'up', qid)).json()).toEqual({ qid, upVotes: [], downVotes: [] });
      expect((await vote(bob, 'down', qid)).json()).toEqual({ qid, upVotes: [], downVotes: [bob.username] });
      expect((await vote(bob, 'up', qid)).json()).toEqual({ qid, upVotes: [bob.username], downVotes: [] });
      expect((await vote(alice, 'down', qid)).json()).toEqual({
        qid,
        upVotes: [bob.username],
        downVotes: [alice.username],
      });
      expect((await vote(bob, 'down', qid)).json()).toEqual({
        qid,
        upVotes: [],
        downVotes: expect.arrayContaining([alice.username, bob.username]) as unknown,
      });
      expect((await vote(alice, 'down', qid)).json()).toEqual({ qid, upVotes: [], downVotes: [bob.username] });
      expect((await vote(alice, 'down', qid)).json()).toEqual({
        qid,
        upVotes: [],
        downVotes: expect.arrayContaining([alice.username, bob.username]) as unknown,
      });
      const page = await question(qid);
      expect(page.downVotes.sort()).toEqual([alice.username, bob.username].sort());
      const { questions } = await list(alice, 'limit=100');
      expect(questions.find((q) => q._id === qid)?.voteCount).toBe(-2);
    });

    it('toggles at once: a second upvote takes the first back, a third puts it again (docs/product.md section 7)', async () => {
      const qid = await askQuestion(t.app, alice);
      for (const expected of [[bob.username], [], [bob.username]]) {
        const response = await vote(bob, 'up', qid);
        expect(response.statusCode).toBe(200);
        expect(response.json<{ upVotes: string[] }>().upVotes).toEqual(expected);
        expect((await question(qid)).upVotes).toEqual(expected);
      }
    });

    it('applies identical votes sent in parallel one after another: their parity decides', async () => {
      for (const [times, stored] of [
        [50, 0],
        [51, 1],
      ] as const) {
        const qid = await askQuestion(t.app, alice);
        const responses = await Promise.all(Array.from({ length: times }, () => vote(bob, 'up', qid)));
        expect(responses.every((r) => r.statusCode === 200)).toBe(true);
        const page = await question(qid);
        expect(page.upVotes).toEqual(stored === 1 ? [bob.username] : []);
        expect(page.downVotes).toEqual([]);
        expect(await count('votes where question_id = ' + Number(qid))).toBe(stored);
      }
    });

    it("refuses a vote in someone else's name, and on a missing question", async () => {
      const qid = await askQuestion(t.app, alice);
      expect((await vote(alice, 'up', qid, bob.username)).statusCode).toBe(403);
      expect((await vote(alice, 'up', '999999999')).statusCode).toBe(404);
      expect((await question(qid)).upVotes).toEqual([]);
    });

    it('keeps counters equal to the stored votes under parallel toggles', async () => {
      const qid = await askQuestion(t.app, alice);
      await Promise.all(Array.from({ length: 20 }, (_, i) => vote(i % 2 ? alice : bob, i % 3 ? 'up' : 'down', qid)));
      const [row] = await queryRows<{ up: number; down: number; storedUp: number; storedDown: number }>(
        t.app.db,
        sql`select up_count as up, down_count as down,
          (select count(*)::int from votes where question_id = ${Number(qid)} and value = 1) as "storedUp",
          (select count(*)::int from votes where question_id = ${Number(qid)} and value = -1) as "storedDown"
          from questions where id = ${Number(qid)}`,
      );
      expect(row!.up).toBe(row!.storedUp);
      expect(row!.down).toBe(row!.storedDown);
      expect(row!.up + row!.down).toBeLessThanOrEqual(2);
    });
  });

  describe('live updates', () => {
    let watcher: Socket;

    beforeAll(async () => {
      watcher = openSocket(t.url, { cookie: bob.cookie });
      await connected(watcher);
    });
    afterAll(() => {
      watcher.disconnect();
    });

    it('sends questionUpdate with the new summary', async () => {
      const received = nextEvent<QuestionSummary>(watcher, SOCKET_EVENTS.questionUpdate);
      const qid = await askQuestion(t.app, alice, { title: 'Live question' });
      expect(await received).toMatchObject({
        _id: qid,
        title: 'Live question',
        askedBy: alice.username,
        answerCount: 0,
      });
    });

    it('sends answerUpdate {qid, answer}', async () => {
      const qid = await askQuestion(t.app, alice);
      await showQuestions(watcher, [qid]);
      const received = nextEvent(watcher, SOCKET_EVENTS.answerUpdate);
      const aid = await answerQuestion(t.app, alice, qid, 'Live answer');
      const me = await t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: alice.cookie } });
      expect(await received).toEqual({
        qid,
        answer: {
          _id: aid,
          text: 'Live answer',
          ansBy: alice.username,
          ansByReputation: me.json<{ reputation: number }>().reputation,
          ansDateTime: expect.any(String) as unknown,
          comments: [],
          upVotes: [],
          downVotes: [],
          editedAt: null,
          editedBy: null,
        },
      });
    });

    it('sends viewsUpdate {qid, views, viewCount} for a new viewer, within a second', async () => {
      const qid = await askQuestion(t.app, alice);
      await showQuestions(watcher, [qid]);
      const received = nextEvent(watcher, SOCKET_EVENTS.viewsUpdate);
      await question(qid, alice);
      expect(await received).toEqual({ qid, views: [alice.username], viewCount: 1 });
    });

    it('sends voteUpdate {qid, upVotes, downVotes}', async () => {
      const qid = await askQuestion(t.app, alice);
      await showQuestions(watcher, [qid]);
      const received = nextEvent(watcher, SOCKET_EVENTS.voteUpdate);
      await post(alice, '/api/upvoteQuestion', { qid, username: alice.username });
      expect(await received).toEqual({ qid, upVotes: [alice.username], downVotes: [] });
    });

    it('sends commentUpdate {result, type}', async () => {
      const qid = await askQuestion(t.app, alice);
      const aid = await answerQuestion(t.app, alice, qid);
      await showQuestions(watcher, [qid]);
      const received = nextEvent<{
        result: { qid: string; parentId: string; comment: { text: string } };
        type: string;
      }>(watcher, SOCKET_EVENTS.commentUpdate);
      await post(alice, '/api/comment/addComment', { id: aid, type: 'answer', comment: { text: 'Live comment' } });
      const event = await received;
      expect(event.type).toBe('answer');
      expect(event.result).toMatchObject({
        qid,
        parentId: aid,
        comment: { text: 'Live comment', commentBy: alice.username },
      });
    });
  });
});
