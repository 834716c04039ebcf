// Issue 35: privileges earned by reputation, and flags that must be earned (docs/product.md
// sections 10 and 13), on both databases through the API.
import { MESSAGES, SOCKET_EVENTS, type Privilege } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import {
  answerQuestion,
  askQuestion,
  callAs,
  grantReputation,
  registerTrustedFlagger,
  registerUser,
  type Call,
  type TestUser,
} from '../../test/factories.ts';
import { connected, nextEvent, openSocket, showQuestions } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('privileges on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let moderator: TestUser;
  const call: Call = (...request) => callAs(t.app, ...request);

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
    moderator = await registerUser(t.app);
    await call(admin, 'PUT', `/api/admin/users/${moderator.username}/role`, { role: 'moderator' });
  });
  afterAll(async () => t?.close());

  const privileges = async (user: TestUser) => {
    const response = await call(user, 'GET', '/api/privileges');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Privilege[]>();
  };
  const has = async (user: TestUser) => Object.fromEntries((await privileges(user)).map((p) => [p.key, p.has]));
  const setThresholds = async (thresholds: object) => {
    const response = await call(admin, 'PUT', '/api/admin/privileges', thresholds);
    expect(response.statusCode, response.body).toBe(200);
  };
  const flag = (user: TestUser, targetId: string, reason = 'spam', targetType = 'question') =>
    call(user, 'POST', '/api/flag', { targetType, targetId, reason });
  /** Whether a question shows to a member who neither wrote it nor moderates. */
  const shows = async (qid: string) => {
    const [reader] = [await registerUser(t.app)];
    return (await call(reader, 'GET', `/api/getQuestionById/${qid}`)).statusCode === 200;
  };
  const queued = async (qid: string) => {
    const response = await call(moderator, 'GET', '/api/moderation/queue');
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json<{ items: Array<{ targetType: string; targetId: string }> }>()
      .items.some((item) => item.targetType === 'question' && item.targetId === qid);
  };

  it('lists each privilege with its default threshold; a new member has none, moderators and admins all', async () => {
    const member = await registerUser(t.app);
    expect(await privileges(member)).toEqual([
      { key: 'flagToHide', name: 'Flag to hide', threshold: 15, has: false },
      { key: 'editAny', name: 'Edit any post', threshold: 2000, has: false },
      { key: 'closeVote', name: 'Vote to close', threshold: 3000, has: false },
    ]);
    for (const staff of [moderator, admin]) {
      expect(await has(staff)).toEqual({ flagToHide: true, editAny: true, closeVote: true });
    }
    expect((await call(null, 'GET', '/api/privileges')).statusCode).toBe(401);
  });

  it('gives a privilege at its threshold, not below', async () => {
    const member = await registerUser(t.app);
    await grantReputation(t.app, member, 13); // 14
    expect((await has(member)).flagToHide).toBe(false);
    await grantReputation(t.app, member, 1); // 15
    expect(await has(member)).toEqual({ flagToHide: true, editAny: false, closeVote: false });
    await grantReputation(t.app, member, 1984); // 1999
    expect((await has(member)).editAny).toBe(false);
    await grantReputation(t.app, member, 1); // 2000
    expect(await has(member)).toEqual({ flagToHide: true, editAny: true, closeVote: false });
    await grantReputation(t.app, member, 1000); // 3000
    expect((await has(member)).closeVote).toBe(true);
  });

  it('lets admins change thresholds, and nobody else; refuses bad values', async () => {
    const member = await registerUser(t.app);
    for (const as of [member, moderator]) {
      const refused = await call(as, 'PUT', '/api/admin/privileges', { flagToHide: 5 });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, MESSAGES.onlyAdmins]);
    }
    for (const value of [0, 1_000_001, 1.5, '5', null]) {
      const refused = await call(admin, 'PUT', '/api/admin/privileges', { editAny: value });
      expect([refused.statusCode, refused.json<{ error: string }>().error], String(value)).toEqual([
        400,
        MESSAGES.privilegeThreshold,
      ]);
    }
    expect((await call(admin, 'PUT', '/api/admin/privileges', { karma: 5 })).statusCode).toBe(400);
    const changed = await call(admin, 'PUT', '/api/admin/privileges', { editAny: 1, closeVote: 1_000_000 });
    expect(changed.json<Privilege[]>().map((p) => p.threshold)).toEqual([15, 1, 1_000_000]);
    expect(await has(member)).toEqual({ flagToHide: false, editAny: true, closeVote: false });
    await setThresholds({ editAny: 2000, closeVote: 3000 });
    expect(await has(member)).toEqual({ flagToHide: false, editAny: false, closeVote: false });
  });

  it("'Edit any post' lets a member edit others' questions and answers; without it, 403", async () => {
    await setThresholds({ editAny: 50 });
    const [author, editor] = [await registerUser(t.app), await registerUser(t.app)];
    const qid = await askQuestion(t.app, author);
    const aid = await answerQuestion(t.app, author, qid);
    const editQuestion = () =>
      call(editor, 'PUT', `/api/question/${qid}`, {
        title: 'An edited title for this question',
        text: 'The question, made clearer by someone else.',
        tags: [{ name: 'edited', description: '' }],
        reason: 'clearer',
      });
    const editAnswer = () =>
      call(editor, 'PUT', `/api/answer/${aid}`, { text: 'The answer, made clearer.', reason: 'clearer' });
    for (const refused of [await editQuestion(), await editAnswer()]) {
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, MESSAGES.editOwnOnly]);
    }
    await grantReputation(t.app, editor, 49); // 50
    const edited = await editQuestion();
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await editAnswer()).statusCode).toBe(200);
    const revisions = (await call(editor, 'GET', `/api/question/${qid}/revisions`)).json<Array<{ editedBy: string }>>();
    expect(revisions[0]!.editedBy).toBe(editor.username);
    await setThresholds({ editAny: 2000 });
  });

  it('counts a member’s spam and rude flags toward hiding only with Flag to hide', async () => {
    const author = await registerUser(t.app);
    const fresh = await Promise.all([1, 2, 3].map(() => registerUser(t.app)));
    const qid = await askQuestion(t.app, author);
    for (const flagger of fresh) expect((await flag(flagger, qid)).statusCode).toBe(200);
    expect(await shows(qid)).toBe(true);
    expect(await queued(qid)).toBe(true); // every flag reaches the queue

    const trusted = await Promise.all([1, 2, 3].map(() => registerTrustedFlagger(t.app)));
    const other = await askQuestion(t.app, author);
    await flag(trusted[0]!, other);
    await flag(trusted[1]!, other);
    await flag(trusted[2]!, other, 'off-topic'); // not a hiding reason
    expect(await shows(other)).toBe(true);
    await flag(fresh[0]!, other, 'rude');
    expect(await shows(other)).toBe(true);
    await flag(await registerTrustedFlagger(t.app), other, 'rude');
    expect(await shows(other)).toBe(false);
  });

  it("hides at once on a moderator's or admin's spam or rude flag, never a staff member's post", async () => {
    const author = await registerUser(t.app);
    for (const staff of [moderator, admin]) {
      const qid = await askQuestion(t.app, author);
      await flag(staff, qid, 'off-topic');
      expect(await shows(qid)).toBe(true);
      const other = await askQuestion(t.app, author);
      expect((await flag(staff, other, 'rude')).statusCode).toBe(200);
      expect(await shows(other)).toBe(false);
    }
    const staffPost = await askQuestion(t.app, moderator);
    const trusted = await Promise.all([1, 2, 3, 4].map(() => registerTrustedFlagger(t.app)));
    for (const flagger of trusted) expect((await flag(flagger, staffPost)).statusCode).toBe(200);
    expect((await flag(admin, staffPost)).statusCode).toBe(200);
    expect(await shows(staffPost)).toBe(true);
    expect(await queued(staffPost)).toBe(true);
  });

  it('a suspension withdraws the member’s open flags and shows again what falls below three', async () => {
    const author = await registerUser(t.app);
    const trusted = await Promise.all([1, 2, 3].map(() => registerTrustedFlagger(t.app)));
    const qid = await askQuestion(t.app, author);
    const kept = await askQuestion(t.app, author);
    for (const flagger of trusted) await flag(flagger, qid);
    await flag(trusted[0]!, kept, 'other');
    await flag(trusted[1]!, kept, 'other');
    expect(await shows(qid)).toBe(false);

    const suspended = await call(moderator, 'POST', '/api/moderation/suspend', {
      username: trusted[0]!.username,
      reason: 'Flagging in bad faith',
      days: 3,
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(await shows(qid)).toBe(true);
    expect(await queued(qid)).toBe(true); // two open flags still ask for a decision
    expect(await queued(kept)).toBe(true);
    // The same with a moderator's flag among them: it still hides.
    const third = await askQuestion(t.app, author);
    await flag(trusted[1]!, third);
    await flag(moderator, third);
    await call(moderator, 'POST', '/api/moderation/suspend', {
      username: trusted[1]!.username,
      reason: 'Again',
      days: 1,
    });
    expect(await shows(third)).toBe(false);
    expect(await queued(kept)).toBe(false); // both its flaggers are suspended
  });

  describe('close and reopen votes', () => {
    let voters: TestUser[];
    beforeAll(async () => {
      voters = await Promise.all([1, 2, 3, 4].map(() => registerUser(t.app)));
      for (const voter of voters) await grantReputation(t.app, voter, 2999); // 3000: 'Vote to close'
    });
    type Votes = {
      qid: string;
      closed: { reason: string; duplicateOf: { _id: string } | null; closedBy: string } | null;
      closeVotes: number;
    };
    const closeVote = (user: TestUser, qid: string, body: object) =>
      call(user, 'POST', `/api/question/${qid}/closeVote`, body);
    const reopenVote = (user: TestUser, qid: string) => call(user, 'POST', `/api/question/${qid}/reopenVote`);
    const voted = async (response: Promise<{ statusCode: number; body: string; json: <T>() => T }>) => {
      const answer = await response;
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<Votes>();
    };
    const page = async (qid: string) =>
      (await call(admin, 'GET', `/api/getQuestionById/${qid}`)).json<{ closeVotes: number; closed: Votes['closed'] }>();

    it('refuses members below the threshold, naming it; a second vote by the same member is a 409', async () => {
      const [author, member] = [await registerUser(t.app), await registerUser(t.app)];
      const qid = await askQuestion(t.app, author);
      const refused = await closeVote(member, qid, { reason: 'off-topic' });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
        403,
        'You need 3000 reputation to vote to close',
      ]);
      await setThresholds({ closeVote: 10 });
      expect((await closeVote(member, qid, { reason: 'off-topic' })).json<{ error: string }>().error).toBe(
        'You need 10 reputation to vote to close',
      );
      await setThresholds({ closeVote: 3000 });
      expect(await voted(closeVote(voters[0]!, qid, { reason: 'off-topic' }))).toEqual({
        qid,
        closed: null,
        closeVotes: 1,
      });
      const twice = await closeVote(voters[0]!, qid, { reason: 'needs details' });
      expect([twice.statusCode, twice.json<{ error: string }>().error]).toEqual([409, MESSAGES.closeVoteTwice]);
      expect((await page(qid)).closeVotes).toBe(1);
      const reopenOpen = await reopenVote(voters[1]!, qid);
      expect([reopenOpen.statusCode, reopenOpen.json<{ error: string }>().error]).toEqual([409, MESSAGES.notClosed]);
      expect((await closeVote(voters[1]!, qid, { reason: 'duplicate' })).statusCode).toBe(400); // a duplicate names its original
    });

    it('the third vote closes with the reason most voters gave, then three reopen it; logged', async () => {
      const author = await registerUser(t.app);
      const qid = await askQuestion(t.app, author);
      await voted(closeVote(voters[0]!, qid, { reason: 'needs details' }));
      await voted(closeVote(voters[1]!, qid, { reason: 'off-topic' }));
      const closed = await voted(closeVote(voters[2]!, qid, { reason: 'off-topic' }));
      expect(closed).toMatchObject({
        qid,
        closeVotes: 0,
        closed: { reason: 'off-topic', closedBy: voters[2]!.username },
      });
      expect(await page(qid)).toMatchObject({ closeVotes: 0, closed: { reason: 'off-topic' } });
      const already = await closeVote(voters[3]!, qid, { reason: 'off-topic' });
      expect([already.statusCode, already.json<{ error: string }>().error]).toEqual([409, MESSAGES.alreadyClosed]);

      expect(await voted(reopenVote(voters[0]!, qid))).toMatchObject({
        closeVotes: 1,
        closed: { reason: 'off-topic' },
      });
      const again = await reopenVote(voters[0]!, qid);
      expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([409, MESSAGES.reopenVoteTwice]);
      await voted(reopenVote(voters[1]!, qid));
      expect(await voted(reopenVote(voters[3]!, qid))).toEqual({ qid, closed: null, closeVotes: 0 });
      const log = (await call(admin, 'GET', '/api/moderation/log')).json<
        Array<{ action: string; moderator: string; reason: string; targetId: string }>
      >();
      expect(
        log
          .filter((entry) => entry.targetId === qid)
          .map(({ action, moderator, reason }) => ({ action, moderator, reason })),
      ).toEqual([
        { action: 'reopen', moderator: voters[3]!.username, reason: 'reopened by 3 votes' },
        { action: 'close', moderator: voters[2]!.username, reason: 'off-topic by 3 votes' },
      ]);
    });

    it('a tie goes to the earliest vote’s reason; a duplicate closes onto the original most voters named', async () => {
      const author = await registerUser(t.app);
      const [first, second, qid] = [
        await askQuestion(t.app, author),
        await askQuestion(t.app, author),
        await askQuestion(t.app, author),
      ];
      await voted(closeVote(voters[0]!, qid, { reason: 'needs details' }));
      await voted(closeVote(voters[1]!, qid, { reason: 'off-topic' }));
      await voted(closeVote(voters[2]!, qid, { reason: 'duplicate', duplicateOf: first }));
      expect((await page(qid)).closed).toMatchObject({ reason: 'needs details', duplicateOf: null });

      const dup = await askQuestion(t.app, author);
      await voted(closeVote(voters[0]!, dup, { reason: 'duplicate', duplicateOf: second }));
      await voted(closeVote(voters[1]!, dup, { reason: 'duplicate', duplicateOf: first }));
      await voted(closeVote(voters[2]!, dup, { reason: 'duplicate', duplicateOf: first }));
      expect((await page(dup)).closed).toMatchObject({ reason: 'duplicate', duplicateOf: { _id: first } });
    });

    it('tells pages showing the question of each vote, and of the close', async () => {
      const author = await registerUser(t.app);
      const qid = await askQuestion(t.app, author);
      const reader = openSocket(t.url, { cookie: author.cookie });
      try {
        await connected(reader);
        await showQuestions(reader, [qid]);
        let next = nextEvent<Votes>(reader, SOCKET_EVENTS.closeVoteUpdate);
        await voted(closeVote(voters[0]!, qid, { reason: 'off-topic' }));
        expect(await next).toEqual({ qid, closed: null, closeVotes: 1 });
        next = nextEvent<Votes>(reader, SOCKET_EVENTS.closeVoteUpdate);
        await voted(closeVote(voters[1]!, qid, { reason: 'off-topic' }));
        expect((await next).closeVotes).toBe(2);
        const closing = nextEvent<{ qid: string; closed: Votes['closed'] }>(reader, SOCKET_EVENTS.closeUpdate);
        await voted(closeVote(voters[2]!, qid, { reason: 'off-topic' }));
        expect(await closing).toMatchObject({ qid, closed: { reason: 'off-topic' } });
      } finally {
        reader.disconnect();
      }
    });

    it("a moderator's close or reopen acts at once and clears the votes", async () => {
      const author = await registerUser(t.app);
      const qid = await askQuestion(t.app, author);
      await voted(closeVote(voters[0]!, qid, { reason: 'off-topic' }));
      await voted(closeVote(voters[1]!, qid, { reason: 'off-topic' }));
      const closed = await call(moderator, 'POST', `/api/question/${qid}/close`, { reason: 'needs details' });
      expect(closed.statusCode, closed.body).toBe(200);
      expect(await page(qid)).toMatchObject({
        closeVotes: 0,
        closed: { reason: 'needs details', closedBy: moderator.username },
      });
      await voted(reopenVote(voters[0]!, qid));
      await call(moderator, 'POST', `/api/question/${qid}/reopen`);
      expect(await page(qid)).toMatchObject({ closeVotes: 0, closed: null });
      // The earlier voters may vote again on the new state.
      expect(await voted(closeVote(voters[0]!, qid, { reason: 'off-topic' }))).toMatchObject({ closeVotes: 1 });
    });
  });
});
