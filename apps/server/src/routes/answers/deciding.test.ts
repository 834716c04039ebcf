import { MESSAGES, SOCKET_EVENTS, type Question, type QuestionSummary } from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll, showQuestions, until } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** Answer votes and the accepted answer (docs/product.md section 7), on both databases. */
describe.each(DATABASE_KINDS)('answers that decide on %s', (kind) => {
  let t: TestApp;
  let asker: TestUser;
  let voter: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    asker = await registerUser(t.app);
    voter = await registerUser(t.app);
    other = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const post = (user: TestUser | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, payload, headers: user ? { cookie: user.cookie } : {} });
  const voteAnswer = (user: TestUser | null, direction: 'up' | 'down', aid: string, username = user?.username) =>
    post(user, `/api/answer/${direction}voteAnswer`, { aid, username });
  const accept = (user: TestUser | null, qid: string, aid: string) =>
    post(user, '/api/answer/acceptAnswer', { qid, aid });
  const page = async (qid: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/getQuestionById/${qid}`, headers: { cookie: voter.cookie } })
    ).json<Question>();
  const listRow = async (qid: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/getQuestion?order=newest', headers: { cookie: voter.cookie } }))
      .json<QuestionSummary[]>()
      .find((row) => row._id === qid);
  /** The stored votes of an answer, counted from its rows, beside its kept counters. */
  const stored = async (aid: string) => {
    const [row] = await queryRows<{ up: number; down: number; upCount: number; downCount: number }>(
      t.app.db,
      sql`select (select count(*) from answer_votes where answer_id = ${aid}::bigint and value = 1)::int as up,
        (select count(*) from answer_votes where answer_id = ${aid}::bigint and value = -1)::int as down,
        up_count as "upCount", down_count as "downCount" from answers where id = ${aid}::bigint`,
    );
    return row!;
  };

  describe('answer votes', () => {
    it('toggle like question votes: up, up again takes it back, down moves it', async () => {
      const qid = await askQuestion(t.app, asker);
      const aid = await answerQuestion(t.app, other, qid);

      const up = await voteAnswer(voter, 'up', aid);
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ qid, aid, upVotes: [voter.username], downVotes: [] });
      const answer = (await page(qid)).answers.find((a) => a._id === aid);
      expect(answer?.upVotes).toEqual([voter.username]);
      expect(answer?.downVotes).toEqual([]);

      expect((await voteAnswer(voter, 'up', aid)).json()).toEqual({ qid, aid, upVotes: [], downVotes: [] });
      expect((await voteAnswer(voter, 'up', aid)).json()).toMatchObject({ upVotes: [voter.username] });
      expect((await voteAnswer(voter, 'down', aid)).json()).toEqual({
        qid,
        aid,
        upVotes: [],
        downVotes: [voter.username],
      });
      expect(await stored(aid)).toEqual({ up: 0, down: 1, upCount: 0, downCount: 1 });
      // The answers endpoint carries them too.
      const rest = await t.app.inject({
        method: 'GET',
        url: `/api/question/${qid}/answers`,
        headers: { cookie: voter.cookie },
      });
      expect(rest.json<Question['answers']>()[0]).toMatchObject({ _id: aid, upVotes: [], downVotes: [voter.username] });
    });

    it('apply one after another: an even number of identical votes at once leaves none, counters equal to rows', async () => {
      const qid = await askQuestion(t.app, asker);
      const aid = await answerQuestion(t.app, other, qid);
      const responses = await Promise.all(Array.from({ length: 10 }, () => voteAnswer(voter, 'up', aid)));
      expect(responses.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
      await Promise.all(Array.from({ length: 7 }, () => voteAnswer(asker, 'down', aid)));
      expect(await stored(aid)).toEqual({ up: 0, down: 1, upCount: 0, downCount: 1 });
    });

    it('refuse visitors, another name, bad ids and unknown answers, changing nothing', async () => {
      const qid = await askQuestion(t.app, asker);
      const aid = await answerQuestion(t.app, other, qid);
      expect((await voteAnswer(null, 'up', aid)).statusCode).toBe(401);
      const impersonating = await voteAnswer(voter, 'up', aid, other.username);
      expect(impersonating.statusCode).toBe(403);
      const bad = await voteAnswer(voter, 'up', 'abc');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'Invalid id' });
      const unknown = await voteAnswer(voter, 'up', '999999999');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ error: 'Answer not found', code: 'not_found' });
      expect(await stored(aid)).toEqual({ up: 0, down: 0, upCount: 0, downCount: 0 });
    });
  });

  describe('the accepted answer', () => {
    it('is set by the asker, moved by accepting another and taken back by accepting it again', async () => {
      const qid = await askQuestion(t.app, asker);
      const first = await answerQuestion(t.app, other, qid);
      const second = await answerQuestion(t.app, voter, qid);
      expect((await page(qid)).acceptedAnswer).toBeNull();
      expect((await listRow(qid))?.acceptedAnswer).toBeNull();

      const accepted = await accept(asker, qid, first);
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toEqual({ qid, acceptedAnswer: first });
      expect((await page(qid)).acceptedAnswer).toBe(first);
      expect((await listRow(qid))?.acceptedAnswer).toBe(first);

      expect((await accept(asker, qid, second)).json()).toEqual({ qid, acceptedAnswer: second });
      expect((await page(qid)).acceptedAnswer).toBe(second);

      expect((await accept(asker, qid, second)).json()).toEqual({ qid, acceptedAnswer: null });
      expect((await page(qid)).acceptedAnswer).toBeNull();
      expect((await listRow(qid))?.acceptedAnswer).toBeNull();
    });

    it("refuses anyone but the asker with 403 and the product's words, changing nothing", async () => {
      const qid = await askQuestion(t.app, asker);
      const aid = await answerQuestion(t.app, other, qid);
      // Even the answer's own author.
      const refused = await accept(other, qid, aid);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: MESSAGES.onlyAskerAccepts, code: 'only_asker_accepts' });
      expect((await accept(null, qid, aid)).statusCode).toBe(401);
      expect((await page(qid)).acceptedAnswer).toBeNull();
    });

    it("refuses another question's answer (400) and an unknown question (404)", async () => {
      const qid = await askQuestion(t.app, asker);
      const elsewhere = await answerQuestion(t.app, other, await askQuestion(t.app, asker));
      const wrong = await accept(asker, qid, elsewhere);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ error: MESSAGES.answerNotOfQuestion });
      const missing = await accept(asker, '999999999', elsewhere);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: 'Question not found' });
      expect((await page(qid)).acceptedAnswer).toBeNull();
    });
  });

  describe('live', () => {
    it('answer votes and accepts reach the sockets showing the question, and no other', async () => {
      const qid = await askQuestion(t.app, asker);
      const aid = await answerQuestion(t.app, other, qid);
      const elsewhere = await askQuestion(t.app, asker);
      const watching = openSocket(t.url, { cookie: voter.cookie });
      const away = openSocket(t.url, { cookie: other.cookie });
      try {
        await Promise.all([connected(watching), connected(away)]);
        await showQuestions(watching, [qid]);
        await showQuestions(away, [elsewhere]);
        const heardAway = recordAll(away);

        const voted = nextEvent<SocketPayloads['answerVoteUpdate']>(watching, SOCKET_EVENTS.answerVoteUpdate);
        await voteAnswer(voter, 'up', aid);
        expect(await voted).toEqual({ qid, aid, upVotes: [voter.username], downVotes: [] });

        const acceptance = nextEvent<SocketPayloads['acceptUpdate']>(watching, SOCKET_EVENTS.acceptUpdate);
        await accept(asker, qid, aid);
        expect(await acceptance).toEqual({ qid, acceptedAnswer: aid });

        // The page that shows another question heard neither (it shows its own question's events
        // only), but its member, the answer's author, was told of the accept (their notification).
        const marker = nextEvent(away, SOCKET_EVENTS.voteUpdate);
        await post(voter, '/api/upvoteQuestion', { qid: elsewhere, username: voter.username });
        await marker;
        await until(() => heardAway.length > 1, 1_000);
        expect(heardAway.map((heard) => heard.event)).toEqual([
          SOCKET_EVENTS.notificationUpdate,
          SOCKET_EVENTS.voteUpdate,
        ]);
        expect(heardAway[0]!.payload).toMatchObject({ kind: 'accept', qid, aid, actor: asker.username });
      } finally {
        watching.close();
        away.close();
      }
    });
  });
});

/** Roles (docs/product.md section 10): the first account is admin; admins set roles; the last admin stays. */
describe.each(DATABASE_KINDS)('roles on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
    member = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const me = async (user: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: user.cookie } })).json<{
      role: string;
    }>().role;
  const listUsers = (user: TestUser | null, search = '') =>
    t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=${encodeURIComponent(search)}`,
      headers: user ? { cookie: user.cookie } : {},
    });
  const setRole = (user: TestUser | null, username: string, role: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${encodeURIComponent(username)}/role`,
      payload: { role },
      headers: user ? { cookie: user.cookie } : {},
    });

  it('makes the first account of an empty installation admin and every later one a member', async () => {
    expect(admin.account.role).toBe('admin');
    expect(member.account.role).toBe('member');
    expect(await me(admin)).toBe('admin');
    expect(await me(member)).toBe('member');
  });

  it('lets only admins list accounts and set roles: a member gets 403, a visitor 401, and nothing changes', async () => {
    const listed = await listUsers(member);
    expect(listed.statusCode).toBe(403);
    expect(listed.json()).toEqual({ error: MESSAGES.onlyAdmins, code: 'forbidden' });
    expect((await listUsers(null)).statusCode).toBe(401);
    expect((await setRole(member, member.username, 'admin')).statusCode).toBe(403);
    expect((await setRole(null, member.username, 'admin')).statusCode).toBe(401);
    expect(await me(member)).toBe('member');
  });

  it('lists accounts by a part of their name, with their roles and nothing private', async () => {
    const found = await listUsers(admin, member.username.slice(-6).toUpperCase());
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual([
      { username: member.username, role: 'member', createdAt: expect.any(String) as unknown },
    ]);
    const all = await listUsers(admin);
    expect(all.json<Array<{ username: string }>>().map((user) => user.username)).toEqual(
      expect.arrayContaining([admin.username, member.username]),
    );
  });

  it("sets a role that counts at the member's next request, and refuses unknown roles and names", async () => {
    const extra = await registerUser(t.app);
    // Read once, so that the session is remembered with its old role.
    expect((await listUsers(extra)).statusCode).toBe(403);
    const promoted = await setRole(admin, extra.username.toUpperCase(), 'admin');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ username: extra.username, role: 'admin' });
    expect((await listUsers(extra)).statusCode).toBe(200);
    expect(await me(extra)).toBe('admin');

    const bad = await setRole(admin, extra.username, 'owner');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Role must be one of member, moderator, admin' });
    const missing = await setRole(admin, 'nobody_here_at_all', 'moderator');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: MESSAGES.userNotFound });

    expect((await setRole(admin, extra.username, 'moderator')).json()).toMatchObject({ role: 'moderator' });
    expect(await me(extra)).toBe('moderator');
  });

  it('never removes the last admin, even when two admins demote each other at once', async () => {
    const lone = await setRole(admin, admin.username, 'member');
    expect(lone.statusCode).toBe(400);
    expect(lone.json()).toEqual({ error: MESSAGES.lastAdmin, code: 'last_admin' });
    expect(await me(admin)).toBe('admin');

    const second = await registerUser(t.app);
    await setRole(admin, second.username, 'admin');
    const [one, two] = await Promise.all([
      setRole(admin, second.username, 'member'),
      setRole(second, admin.username, 'member'),
    ]);
    const statuses = [one.statusCode, two.statusCode].sort();
    // One demotion wins; the other is refused (the last admin) or, its caller no longer an admin, forbidden.
    expect(statuses[0]).toBe(200);
    expect([400, 403]).toContain(statuses[1]);
    const admins = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from accounts where role = 'admin'`,
    );
    expect(admins[0]?.n).toBe(1);
  });
});
