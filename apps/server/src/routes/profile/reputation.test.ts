// Issue 35: the reputation ledger (docs/product.md section 13) on both databases, through the
// API and the event processor: every row of the table, undo, moving the accept, deletes and
// hides, the floor, the daily cap, parallel votes, adjustments, and the upgrade's rebuild.
import { MESSAGES, type Account, type UserReputation } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import {
  answerQuestion,
  askQuestion,
  callAs,
  registerTrustedFlagger,
  registerUser,
  type Call,
  type TestUser,
} from '../../test/factories.ts';
import { pause } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Waits, if the UTC day is about to turn, until it has: the daily cap counts a UTC day's
 * upvotes, and a test that cast them across midnight would see two days.
 */
async function awayFromMidnight(): Promise<void> {
  const untilMidnight = () => {
    const now = new Date();
    return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime();
  };
  while (untilMidnight() < 120_000) await pause(Math.min(untilMidnight() + 50, 1000));
}

/** A test that may first wait out a UTC midnight (awayFromMidnight: up to 2 minutes) has time for it. */
const PAST_MIDNIGHT = { timeout: 180_000 };

describe.each(DATABASE_KINDS)('reputation on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  const call: Call = (...request) => callAs(t.app, ...request);

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
  });
  afterAll(async () => t?.close());

  const people = (count: number) => Promise.all(Array.from({ length: count }, () => registerUser(t.app)));
  const reputationOf = async (user: TestUser, as: TestUser = user) => {
    const response = await call(as, 'GET', `/api/profile/reputation/${user.username}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UserReputation>();
  };
  const points = async (user: TestUser) => (await reputationOf(user)).reputation;
  const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
    const { statusCode, body } = await response;
    expect(statusCode, body).toBe(200);
  };
  const voteQuestion = (user: TestUser, direction: 'up' | 'down', qid: string) =>
    ok(call(user, 'POST', `/api/${direction}voteQuestion`, { qid, username: user.username }));
  const voteAnswer = (user: TestUser, direction: 'up' | 'down', aid: string) =>
    ok(call(user, 'POST', `/api/answer/${direction}voteAnswer`, { aid, username: user.username }));
  const accept = (user: TestUser, qid: string, aid: string) =>
    ok(call(user, 'POST', '/api/answer/acceptAnswer', { qid, aid }));

  it('a new account has 1, in me and on its profile; an unknown name is a 404, a visitor a 401', async () => {
    const [member] = await people(1);
    expect((await call(member!, 'GET', '/api/account/me')).json<Account>().reputation).toBe(1);
    expect(await reputationOf(member!, admin)).toEqual({ username: member!.username, reputation: 1, history: [] });
    const unknown = await call(member!, 'GET', '/api/profile/reputation/nobody_here_at_all');
    expect([unknown.statusCode, unknown.json<{ error: string }>().error]).toEqual([404, MESSAGES.userNotFound]);
    expect((await call(null, 'GET', `/api/profile/reputation/${member!.username}`)).statusCode).toBe(401);
  });

  it('gives each row of the table, with its reason and post, newest first', async () => {
    const [asker, answerer, voter] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);

    await voteQuestion(voter!, 'up', qid);
    expect(await reputationOf(asker!)).toMatchObject({
      reputation: 11,
      history: [{ delta: 10, reason: 'questionUpvoted', qid, aid: null }],
    });
    await voteQuestion(voter!, 'down', qid); // moves the vote: the upvote's row goes
    expect((await reputationOf(asker!)).history).toMatchObject([{ delta: -2, reason: 'questionDownvoted', qid }]);
    expect(await points(asker!)).toBe(1); // 1 - 2, floored at 1

    await voteAnswer(voter!, 'up', aid);
    expect(await reputationOf(answerer!)).toMatchObject({
      reputation: 11,
      history: [{ delta: 10, reason: 'answerUpvoted', qid, aid }],
    });
    await voteAnswer(voter!, 'down', aid);
    expect((await reputationOf(answerer!)).history).toMatchObject([{ delta: -2, reason: 'answerDownvoted', qid, aid }]);
    expect(await reputationOf(voter!)).toMatchObject({
      reputation: 1,
      history: [{ delta: -1, reason: 'downvotedAnswer', qid, aid }],
    });
    await voteAnswer(voter!, 'down', aid); // taken back: both rows go
    expect([(await reputationOf(answerer!)).history, (await reputationOf(voter!)).history]).toEqual([[], []]);

    await accept(asker!, qid, aid);
    expect(await reputationOf(answerer!)).toMatchObject({
      reputation: 16,
      history: [{ delta: 15, reason: 'answerAccepted', qid, aid }],
    });
    const asked = await reputationOf(asker!);
    expect(asked.history).toMatchObject([
      { delta: 2, reason: 'acceptedAnswer', qid, aid },
      { delta: -2, reason: 'questionDownvoted', qid, aid: null },
    ]);
    expect(asked.reputation).toBe(1); // 1 - 2 + 2
    expect(Date.parse(asked.history[0]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('shows each author’s reputation beside their name on the question page and a new answer', async () => {
    const [asker, answerer, voter] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    await voteQuestion(voter!, 'up', qid);
    await voteAnswer(voter!, 'up', aid);
    await accept(asker!, qid, aid);
    const page = (await call(voter!, 'GET', `/api/getQuestionById/${qid}`)).json<{
      askedByReputation: number;
      answers: Array<{ _id: string; ansByReputation: number }>;
    }>();
    expect(page.askedByReputation).toBe(13);
    expect(page.answers).toMatchObject([{ _id: aid, ansByReputation: 26 }]);
    const added = await call(answerer!, 'POST', '/api/answer/addAnswer', {
      qid,
      ans: { text: 'Another way to do it, with more detail.', ansBy: answerer!.username },
    });
    expect(added.json<{ ansByReputation: number }>().ansByReputation).toBe(26);
  });

  it('earns nothing for votes on one’s own posts nor for accepting one’s own answer', async () => {
    const [member] = await people(1);
    const qid = await askQuestion(t.app, member!);
    const aid = await answerQuestion(t.app, member!, qid);
    await voteQuestion(member!, 'up', qid);
    await voteAnswer(member!, 'down', aid);
    await accept(member!, qid, aid);
    expect(await reputationOf(member!)).toMatchObject({ reputation: 1, history: [] });
  });

  it('moves an accept’s rows with the accept, and takes them back when it is taken back', async () => {
    const [asker, first, second] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const a1 = await answerQuestion(t.app, first!, qid);
    const a2 = await answerQuestion(t.app, second!, qid);
    await accept(asker!, qid, a1);
    await accept(asker!, qid, a2);
    expect([await points(first!), await points(second!), await points(asker!)]).toEqual([1, 16, 3]);
    expect((await reputationOf(asker!)).history).toMatchObject([{ reason: 'acceptedAnswer', aid: a2 }]);
    await accept(asker!, qid, a2);
    expect([await points(first!), await points(second!), await points(asker!)]).toEqual([1, 1, 1]);
  });

  it('a deleted post takes its rows out of the history and the sum; undeleting brings them back', async () => {
    const [asker, answerer, voter] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    await voteQuestion(voter!, 'up', qid);
    await voteAnswer(voter!, 'up', aid);
    await voteAnswer(admin, 'down', aid);
    await accept(asker!, qid, aid);
    expect([await points(asker!), await points(answerer!)]).toEqual([13, 24]);

    await ok(call(answerer!, 'DELETE', `/api/answer/${aid}`));
    expect(await reputationOf(answerer!)).toMatchObject({ reputation: 1, history: [] });
    expect(await points(asker!)).toBe(11); // the accept went with the answer; the question's upvote stays
    // Undeleted, its votes count again; its accept was taken back by the delete (section 9), until given again.
    await ok(call(answerer!, 'POST', `/api/answer/${aid}/undelete`));
    expect([await points(asker!), await points(answerer!)]).toEqual([11, 9]);
    await accept(asker!, qid, aid);
    expect([await points(asker!), await points(answerer!)]).toEqual([13, 24]);

    // A moderator deletes the whole question: every row about it and its answers goes.
    await ok(call(admin, 'DELETE', `/api/question/${qid}`));
    expect([await points(asker!), await points(answerer!)]).toEqual([1, 1]);
    expect((await reputationOf(admin)).history.filter((row) => row.qid === qid)).toEqual([]);
    await ok(call(admin, 'POST', `/api/question/${qid}/undelete`));
    expect([await points(asker!), await points(answerer!)]).toEqual([13, 24]);
  });

  it('a post hidden by flags loses its rows until a moderator dismisses the flags', async () => {
    const [author, voter] = await people(2);
    const flaggers = await Promise.all([1, 2, 3].map(() => registerTrustedFlagger(t.app)));
    const qid = await askQuestion(t.app, author!);
    await voteQuestion(voter!, 'up', qid);
    expect(await points(author!)).toBe(11);
    for (const flagger of flaggers) {
      await ok(call(flagger, 'POST', '/api/flag', { targetType: 'question', targetId: qid, reason: 'spam' }));
    }
    expect(await points(author!)).toBe(1);
    await ok(call(admin, 'POST', '/api/moderation/dismiss', { targetType: 'question', targetId: qid }));
    expect(await points(author!)).toBe(11);
  });

  it(
    'caps upvotes at +200 a UTC day: past it an upvote is a row of 0, and its undo takes nothing back',
    PAST_MIDNIGHT,
    async () => {
      await awayFromMidnight();
      const [author, voter] = await people(2);
      const qids: string[] = [];
      for (let i = 0; i < 21; i++)
        qids.push(await askQuestion(t.app, author!, { title: `Capped question number ${i}` }));
      for (const qid of qids) await voteQuestion(voter!, 'up', qid);
      const capped = await reputationOf(author!);
      expect(capped.reputation).toBe(201);
      expect(capped.history[0]).toMatchObject({ delta: 0, reason: 'questionUpvoted', qid: qids[20] });
      expect(capped.history.slice(1).every((row) => row.delta === 10)).toBe(true);
      await voteQuestion(voter!, 'up', qids[20]!);
      expect(await points(author!)).toBe(201);
      // Downvotes are not capped.
      await voteQuestion(voter!, 'down', qids[0]!);
      expect(await points(author!)).toBe(189);
    },
  );

  it(
    'parallel upvotes near the cap never pass it; parallel toggles leave one row per vote cast',
    PAST_MIDNIGHT,
    async () => {
      await awayFromMidnight();
      const [author, ...voters] = await people(7);
      const qids: string[] = [];
      for (let i = 0; i < 24; i++) qids.push(await askQuestion(t.app, author!, { title: `Parallel question ${i}` }));
      for (const qid of qids.slice(0, 18)) await voteQuestion(voters[0]!, 'up', qid);
      expect(await points(author!)).toBe(181);
      // Six upvotes at once on six other questions: two fit under the cap.
      await Promise.all(qids.slice(18).map((qid, index) => voteQuestion(voters[index]!, 'up', qid)));
      expect(await points(author!)).toBe(201);
      const rows = (await reputationOf(author!)).history;
      expect(rows.filter((row) => row.delta === 10)).toHaveLength(20);
      expect(rows.filter((row) => row.delta === 0)).toHaveLength(4);

      // Five toggles of one vote at once: an odd number leaves the vote and exactly one row.
      const target = await askQuestion(t.app, voters[0]!);
      await Promise.all(Array.from({ length: 5 }, () => voteQuestion(voters[1]!, 'down', target)));
      expect((await reputationOf(voters[0]!)).history.filter((row) => row.qid === target)).toHaveLength(1);
    },
  );

  it('lets an admin adjust, with a reason, logged; refuses bad values and everyone else', async () => {
    const [member, moderator] = await people(2);
    await ok(call(admin, 'PUT', `/api/admin/users/${moderator!.username}/role`, { role: 'moderator' }));
    const adjust = (as: TestUser, body: unknown, username = member!.username) =>
      call(as, 'POST', `/api/admin/users/${username}/reputation`, body);

    for (const as of [member!, moderator!]) {
      const refused = await adjust(as, { delta: 5, reason: 'Helpful' });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, MESSAGES.onlyAdmins]);
    }
    for (const delta of [0, 100_001, -100_001, 1.5, '5', null]) {
      const refused = await adjust(admin, { delta, reason: 'Helpful' });
      expect([refused.statusCode, refused.json<{ error: string }>().error], String(delta)).toEqual([
        400,
        MESSAGES.adjustmentDelta,
      ]);
    }
    for (const [reason, message] of [
      ['  ', MESSAGES.adjustmentReasonEmpty],
      ['x'.repeat(201), 'Reason cannot be more than 200 characters'],
    ] as const) {
      const refused = await adjust(admin, { delta: 5, reason });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([400, message]);
    }
    const unknown = await adjust(admin, { delta: 5, reason: 'Helpful' }, 'nobody_here_at_all');
    expect([unknown.statusCode, unknown.json<{ error: string }>().error]).toEqual([404, MESSAGES.userNotFound]);
    expect(await reputationOf(member!)).toMatchObject({ reputation: 1, history: [] });

    const adjusted = await adjust(admin, { delta: 100_000, reason: ' Ran the meetup ' });
    expect(adjusted.json()).toEqual({ username: member!.username, reputation: 100_001 });
    await adjust(admin, { delta: -100_000, reason: 'Took it back' });
    await adjust(admin, { delta: -50, reason: 'Spam ring' });
    expect(await reputationOf(member!)).toMatchObject({
      reputation: 1,
      history: [
        { delta: -50, reason: 'adjustment', qid: null, aid: null },
        { delta: -100_000, reason: 'adjustment' },
        { delta: 100_000, reason: 'adjustment' },
      ],
    });
    const log = (await call(admin, 'GET', '/api/moderation/log')).json<
      Array<{ action: string; moderator: string; subject: string; reason: string }>
    >();
    expect(log.filter((entry) => entry.subject === member!.username)).toEqual([
      expect.objectContaining({ action: 'reputation', moderator: admin.username, reason: '-50: Spam ring' }),
      expect.objectContaining({ action: 'reputation', reason: '-100000: Took it back' }),
      expect.objectContaining({ action: 'reputation', reason: '+100000: Ran the meetup' }),
    ]);
  });

  it('shows the 50 newest events', async () => {
    const [member] = await people(1);
    for (let i = 1; i <= 52; i++) {
      await ok(call(admin, 'POST', `/api/admin/users/${member!.username}/reputation`, { delta: i, reason: `r${i}` }));
    }
    const { history, reputation } = await reputationOf(member!);
    expect(reputation).toBe(1 + (52 * 53) / 2);
    expect(history.map((row) => row.delta)).toEqual(Array.from({ length: 50 }, (_, i) => 52 - i));
  });

  it('the upgrade’s rebuild from votes and accepts gives every account the ledger the API wrote', async () => {
    type Row = {
      account_id: string;
      reason: string;
      question_id: string | null;
      answer_id: string | null;
      hidden: boolean;
    };
    const ledger = () =>
      queryRows<Row>(
        t.app.db,
        sql`select account_id::text, reason, question_id::text, answer_id::text, hidden from reputation_events
          order by account_id, reason, question_id, answer_id, hidden`,
      );
    const sums = () =>
      queryRows<{ id: string; sum: string }>(
        t.app.db,
        sql`select id::text, reputation_sum::text as sum from accounts order by id`,
      );
    const [before, sumsBefore] = [await ledger(), await sums()];
    expect(before.length).toBeGreaterThan(100);
    await queryRows(t.app.db, sql`select rebuild_reputation()`);
    expect(await ledger()).toEqual(before);
    expect(await sums()).toEqual(sumsBefore);
    // From nothing, as an upgrade finds it: the same.
    await queryRows(t.app.db, sql`update accounts set reputation_sum = 0`);
    await queryRows(t.app.db, sql`delete from reputation_events where reason <> 'adjustment'`);
    await queryRows(t.app.db, sql`select rebuild_reputation()`);
    expect(await ledger()).toEqual(before);
    expect(await sums()).toEqual(sumsBefore);
  });
});
