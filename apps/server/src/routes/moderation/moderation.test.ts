import {
  MESSAGES,
  SOCKET_EVENTS,
  type Question,
  type QuestionSummary,
  type TagWithCount,
  type Thread,
} from '@porpoise/core';
import type { SocketPayloads } from '@porpoise/core/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import {
  answerQuestion,
  askQuestion,
  type Call,
  callAs,
  registerTrustedFlagger,
  registerUser,
  type TestUser,
} from '../../test/factories.ts';
import { connected, nextEvent, openSocket, showQuestions } from '../../test/sockets.ts';
import { snapshot } from '../../test/snapshot.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Review = SocketPayloads['reviewUpdate'];
type Queue = { items: Array<NonNullable<Review['item']>>; open: number };
type LogEntry = {
  action: string;
  targetType: string;
  targetId: string;
  moderator: string;
  subject: string | null;
  reason: string | null;
};

/** Flags, the review queue, suspension, the log and the post queue (docs/product.md section 10), on both databases. */
describe.each(DATABASE_KINDS)('moderation on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let moderator: TestUser;
  let author: TestUser;
  let flaggers: TestUser[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
    moderator = await registerUser(t.app);
    author = await registerUser(t.app);
    flaggers = [
      await registerTrustedFlagger(t.app),
      await registerTrustedFlagger(t.app),
      await registerTrustedFlagger(t.app),
    ];
    const promoted = await call(admin, 'PUT', `/api/admin/users/${moderator.username}/role`, { role: 'moderator' });
    expect(promoted.statusCode).toBe(200);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const flag = (user: TestUser | null, targetType: string, targetId: string, reason = 'spam', note?: string) =>
    call(user, 'POST', '/api/flag', { targetType, targetId, reason, ...(note === undefined ? {} : { note }) });
  const queue = async () => (await call(moderator, 'GET', '/api/moderation/queue')).json<Queue>();
  const inQueue = async (targetType: string, targetId: string) =>
    (await queue()).items.find((item) => item.targetType === targetType && item.targetId === targetId);
  const decide = (user: TestUser, action: 'dismiss' | 'delete', targetType: string, targetId: string) =>
    call(user, 'POST', `/api/moderation/${action}`, { targetType, targetId });
  const page = (user: TestUser, qid: string) => call(user, 'GET', `/api/getQuestionById/${qid}`);
  const newest = async (user: TestUser) =>
    (await call(user, 'GET', '/api/getQuestion?order=newest')).json<QuestionSummary[]>().map((row) => row._id);
  const log = async () => (await call(moderator, 'GET', '/api/moderation/log')).json<LogEntry[]>();
  const signIn = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/account/login', payload: { username, password } });

  describe('flags', () => {
    it('checks the flag: its reason, its item, one per member, never on your own post', async () => {
      const qid = await askQuestion(t.app, author);
      expect((await flag(null, 'question', qid)).statusCode).toBe(401);
      const badReason = await flag(flaggers[0]!, 'question', qid, 'boring');
      expect(badReason.statusCode).toBe(400);
      expect(badReason.json<{ error: string }>().error).toBe('Reason must be one of spam, rude, off-topic, other');
      expect((await flag(flaggers[0]!, 'poll', qid)).statusCode).toBe(400);
      const longNote = await flag(flaggers[0]!, 'question', qid, 'other', 'x'.repeat(501));
      expect(longNote.json<{ error: string }>().error).toBe('Note cannot be more than 500 characters');
      const missing = await flag(flaggers[0]!, 'answer', '999999999');
      expect([missing.statusCode, missing.json<{ error: string }>().error]).toEqual([404, 'Answer not found']);
      const own = await flag(author, 'question', qid);
      expect([own.statusCode, own.json<{ error: string }>().error]).toEqual([403, MESSAGES.flagOwn]);
      expect(await inQueue('question', qid)).toBeUndefined();

      const first = await flag(flaggers[0]!, 'question', qid, 'off-topic', '  Not about code  ');
      expect([first.statusCode, first.json()]).toEqual([200, { ok: true }]);
      const again = await flag(flaggers[0]!, 'question', qid, 'spam');
      expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([409, MESSAGES.alreadyFlagged]);
      const item = await inQueue('question', qid);
      expect(item).toMatchObject({
        heldFor: null,
        flagCounts: { spam: 0, rude: 0, 'off-topic': 1, other: 0 },
        flags: [{ reason: 'off-topic', note: 'Not about code', by: flaggers[0]!.username }],
        author: author.username,
        suspendable: true,
        questionId: qid,
      });
    });

    it('hides an item from every list and page at once at three spam or rude flags, but not at off-topic ones', async () => {
      const tag = `hid${Date.now().toString(36)}`;
      const word = `narwhal${Date.now().toString(36)}`;
      const qid = await askQuestion(t.app, author, { title: `About ${word}`, tags: [tag] });
      const watcher = openSocket(t.url, { cookie: flaggers[0]!.cookie });
      const moderatorSocket = openSocket(t.url, { cookie: moderator.cookie });
      try {
        await Promise.all([connected(watcher), connected(moderatorSocket)]);
        await showQuestions(watcher, [qid]);
        // Two off-topic flags and two hiding ones: still shown.
        const other = await registerUser(t.app);
        const another = await registerUser(t.app);
        await flag(other, 'question', qid, 'off-topic');
        await flag(another, 'question', qid, 'other');
        const heard = nextEvent<Review>(moderatorSocket, SOCKET_EVENTS.reviewUpdate);
        await flag(flaggers[0]!, 'question', qid, 'spam');
        expect(await heard).toMatchObject({ targetType: 'question', targetId: qid, item: { heldFor: null } });
        await flag(flaggers[1]!, 'question', qid, 'rude');
        expect(await newest(flaggers[2]!)).toContain(qid);
        expect((await page(flaggers[2]!, qid)).statusCode).toBe(200);

        const hidden = nextEvent<SocketPayloads['deleteUpdate']>(watcher, SOCKET_EVENTS.deleteUpdate);
        const counted = nextEvent<Review>(moderatorSocket, SOCKET_EVENTS.reviewUpdate);
        expect((await flag(flaggers[2]!, 'question', qid, 'spam')).statusCode).toBe(200);
        expect(await hidden).toEqual({ qid, post: 'question', id: qid, deleted: true, held: 'flags' });
        expect((await counted).item).toMatchObject({
          heldFor: 'flags',
          flagCounts: { spam: 2, rude: 1, 'off-topic': 1, other: 1 },
        });

        for (const user of [flaggers[0]!, other]) {
          expect(await newest(user)).not.toContain(qid);
          expect((await page(user, qid)).statusCode).toBe(404);
        }
        // Every order, its tag's pages and count, search and the author's profile: as a deleted question.
        for (const order of ['newest', 'unanswered', 'active', 'mostViewed']) {
          const listed = await call(other, 'GET', `/api/getQuestion?order=${order}`);
          expect(listed.json<QuestionSummary[]>().map((row) => row._id)).not.toContain(qid);
          expect((await call(other, 'GET', `/api/getQuestion?tag=${tag}&order=${order}`)).json()).toEqual([]);
        }
        expect((await call(other, 'GET', `/api/getQuestion?search=${word}`)).json()).toEqual([]);
        const tags = (await call(other, 'GET', '/api/tag/getTagsWithQuestionNumber')).json<TagWithCount[]>();
        expect(tags.find((row) => row.name === tag)?.qcnt ?? 0).toBe(0);
        const profile = await call(other, 'GET', `/api/profile/getQuestions?username=${author.username}`);
        expect(profile.json<QuestionSummary[]>().map((row) => row._id)).not.toContain(qid);
        // Its author and moderators see it, marked as held by flags; the author cannot undo that.
        for (const user of [author, moderator]) {
          expect((await page(user, qid)).json<Question>()).toMatchObject({ deleted: true, held: 'flags' });
        }
        const undo = await call(author, 'POST', `/api/question/${qid}/undelete`);
        expect(undo.statusCode).toBe(403);
        const removeOwn = await call(author, 'DELETE', `/api/question/${qid}`);
        expect([removeOwn.statusCode, removeOwn.json<{ error: string }>().error]).toEqual([
          403,
          MESSAGES.heldForModerator,
        ]);
      } finally {
        watcher.disconnect();
        moderatorSocket.disconnect();
      }
    });

    it('hides answers and comments the same way, and flags none under a post the member may not see', async () => {
      const qid = await askQuestion(t.app, flaggers[0]!);
      const aid = await answerQuestion(t.app, author, qid, 'Buy cheap watches at my shop.');
      // Two members' flags and an admin's (whose flag hides at once: docs/product.md section 10).
      for (const user of [flaggers[1]!, flaggers[2]!, admin])
        expect((await flag(user, 'answer', aid)).statusCode).toBe(200);
      const seen = (await page(flaggers[0]!, qid)).json<Question>();
      expect(seen.answers.map((answer) => answer._id)).not.toContain(aid);
      expect(seen.answerCount).toBe(0);
      const own = (await page(author, qid)).json<Question>();
      expect(own.answers.find((answer) => answer._id === aid)).toMatchObject({ deleted: true, held: 'flags' });

      const commented = await call(author, 'POST', '/api/comment/addComment', {
        id: qid,
        type: 'question',
        comment: { text: 'Visit my shop' },
      });
      const cid = commented.json<{ _id: string }>()._id;
      for (const user of [admin, ...flaggers.slice(1), moderator]) await flag(user, 'comment', cid, 'rude');
      const after = (await page(flaggers[1]!, qid)).json<Question>();
      expect(after.comments.map((comment) => comment._id)).not.toContain(cid);
      // A hidden answer cannot be flagged again by someone who cannot see it.
      const another = await registerUser(t.app);
      expect((await flag(another, 'answer', aid)).statusCode).toBe(404);
    });

    it('hides forum and PorpChat messages from their readers, never a direct message', async () => {
      const forum = await call(author, 'POST', '/api/forum/addForum', {
        name: `Forum ${Date.now().toString(36)}`,
        description: 'A place',
      });
      const tid = forum.json<{ thread: string }>().thread;
      const posted = await call(author, 'POST', '/api/message/addMessage', {
        tid,
        msg: { content: 'Cheap pills here', sender: author.username },
      });
      const mid = posted.json<{ _id: string }>()._id;
      const reader = openSocket(t.url, { cookie: admin.cookie });
      try {
        await connected(reader);
        for (const user of flaggers.slice(0, 2)) expect((await flag(user, 'message', mid)).statusCode).toBe(200);
        const heard = nextEvent<SocketPayloads['messageDeleteUpdate']>(reader, SOCKET_EVENTS.messageDeleteUpdate);
        expect((await flag(flaggers[2]!, 'message', mid, 'rude')).statusCode).toBe(200);
        expect(await heard).toEqual({ tid, id: mid, deleted: true, held: 'flags' });
      } finally {
        reader.disconnect();
      }
      const ids = async (user: TestUser) =>
        (await call(user, 'GET', `/api/thread/getThreadById/${tid}`)).json<Thread>().messages.map((m) => m._id);
      expect(await ids(flaggers[0]!)).not.toContain(mid);
      expect(await ids(author)).toContain(mid);
      expect(await ids(moderator)).toContain(mid);
      const item = await inQueue('message', mid);
      expect(item).toMatchObject({
        heldFor: 'flags',
        threadId: tid,
        author: author.username,
        text: 'Cheap pills here',
      });

      // PorpChat: an anonymous post can be flagged (and hidden), but its author cannot be suspended.
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/message/addMessage',
        payload: { tid: 'porpchat', msg: { content: 'Spam from nowhere', sender: 'drifter' } },
      });
      const pid = anonymous.json<{ _id: string }>()._id;
      expect((await flag(flaggers[0]!, 'message', pid)).statusCode).toBe(200);
      expect(await inQueue('message', pid)).toMatchObject({
        author: 'drifter',
        suspendable: false,
        threadId: 'porpchat',
      });

      // A direct thread's messages are not flaggable: for a flag, they are not there.
      const started = await call(author, 'POST', '/api/thread/addThread', {
        accounts: [author.username, flaggers[0]!.username],
      });
      const direct = started.json<{ _id: string }>()._id;
      const sent = await call(author, 'POST', '/api/message/addMessage', {
        tid: direct,
        msg: { content: 'hello', sender: author.username },
      });
      const refused = await flag(flaggers[0]!, 'message', sent.json<{ _id: string }>()._id);
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([404, 'Message not found']);
    });
  });

  describe('the review queue', () => {
    it('is for moderators and admins only: anyone else gets 403, a visitor 401', async () => {
      for (const [method, url] of [
        ['GET', '/api/moderation/queue'],
        ['GET', '/api/moderation/log'],
        ['POST', '/api/moderation/dismiss'],
        ['POST', '/api/moderation/delete'],
        ['POST', '/api/moderation/suspend'],
      ] as const) {
        const refused = await call(author, method, url, method === 'POST' ? {} : undefined);
        expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, MESSAGES.onlyModerators]);
        expect((await call(null, method, url)).statusCode).toBe(401);
      }
      expect((await call(admin, 'GET', '/api/moderation/queue')).statusCode).toBe(200);
    });

    it("logs an admin's role change, and a socket open before it hears the queue after it", async () => {
      const promoted = await registerUser(t.app);
      const socket = openSocket(t.url, { cookie: promoted.cookie });
      await connected(socket);
      expect(
        (await call(admin, 'PUT', `/api/admin/users/${promoted.username}/role`, { role: 'moderator' })).statusCode,
      ).toBe(200);
      expect((await log())[0]).toMatchObject({
        action: 'role',
        targetType: 'account',
        moderator: admin.username,
        subject: promoted.username,
        reason: 'member to moderator',
      });
      try {
        const heard = nextEvent<Review>(socket, SOCKET_EVENTS.reviewUpdate);
        const qid = await askQuestion(t.app, author);
        expect((await flag(flaggers[0]!, 'question', qid, 'other')).statusCode).toBe(200);
        expect(await heard).toMatchObject({ targetType: 'question', targetId: qid });
      } finally {
        socket.disconnect();
      }
    });

    it('lists items oldest first; dismissing shows a hidden item again, deleting removes it for good', async () => {
      const first = await askQuestion(t.app, author);
      const second = await askQuestion(t.app, author);
      for (const user of flaggers) await flag(user, 'question', second, 'spam');
      await flag(flaggers[0]!, 'question', first, 'other');
      const order = (await queue()).items.map((item) => item.targetId);
      expect(order.indexOf(second)).toBeLessThan(order.indexOf(first));

      expect((await decide(moderator, 'dismiss', 'question', second)).statusCode).toBe(200);
      expect(await newest(flaggers[0]!)).toContain(second);
      expect((await page(flaggers[0]!, second)).json<Question>().deleted).toBeUndefined();
      expect(await inQueue('question', second)).toBeUndefined();
      const twice = await decide(moderator, 'dismiss', 'question', second);
      expect([twice.statusCode, twice.json<{ error: string }>().error]).toEqual([409, MESSAGES.notInQueue]);
      // Its flaggers cannot flag it again; the flag stays one per member per item.
      expect((await flag(flaggers[0]!, 'question', second)).statusCode).toBe(409);

      expect((await decide(moderator, 'delete', 'question', first)).statusCode).toBe(200);
      expect((await page(flaggers[0]!, first)).statusCode).toBe(404);
      expect((await page(author, first)).json<Question>()).toMatchObject({ deleted: true });
      expect((await page(author, first)).json<Question>().held).toBeUndefined();
      const undo = await call(author, 'POST', `/api/question/${first}/undelete`);
      expect(undo.json<{ error: string }>().error).toBe(MESSAGES.undeleteModerated);
      // Deleting it again as its author changes nothing: it stays the moderator's to undo.
      expect((await call(author, 'DELETE', `/api/question/${first}`)).json()).toEqual({ _id: first, deleted: true });
      const still = await call(author, 'POST', `/api/question/${first}/undelete`);
      expect([still.statusCode, still.json<{ error: string }>().error]).toEqual([403, MESSAGES.undeleteModerated]);
      expect((await page(flaggers[1]!, first)).statusCode).toBe(404);
      expect(await inQueue('question', first)).toBeUndefined();

      const entries = await log();
      expect(entries.slice(0, 2)).toMatchObject([
        {
          action: 'delete',
          targetType: 'question',
          targetId: first,
          moderator: moderator.username,
          subject: author.username,
          reason: 'flags: 1 other',
        },
        {
          action: 'dismiss',
          targetType: 'question',
          targetId: second,
          moderator: moderator.username,
          reason: 'flags: 3 spam',
        },
      ]);
    });

    it('gives a hidden accepted answer its acceptance back when its flags are dismissed', async () => {
      const qid = await askQuestion(t.app, flaggers[0]!);
      const aid = await answerQuestion(t.app, author, qid);
      const accepted = await call(flaggers[0]!, 'POST', '/api/answer/acceptAnswer', { qid, aid });
      expect(accepted.json()).toEqual({ qid, acceptedAnswer: aid });
      for (const user of [admin, flaggers[1]!, flaggers[2]!]) await flag(user, 'answer', aid, 'rude');
      expect((await page(flaggers[1]!, qid)).json<Question>().acceptedAnswer).toBeNull();
      expect((await decide(moderator, 'dismiss', 'answer', aid)).statusCode).toBe(200);
      expect((await page(flaggers[1]!, qid)).json<Question>().acceptedAnswer).toBe(aid);
    });

    it("a moderator's undelete of a post the flags hid dismisses them, and it leaves the queue", async () => {
      const qid = await askQuestion(t.app, author);
      for (const user of flaggers) await flag(user, 'question', qid, 'spam');
      expect(await inQueue('question', qid)).toMatchObject({ heldFor: 'flags' });
      expect((await call(moderator, 'POST', `/api/question/${qid}/undelete`)).statusCode).toBe(200);
      expect(await inQueue('question', qid)).toBeUndefined();
      expect((await log())[0]).toMatchObject({ action: 'dismiss', targetId: qid, reason: 'flags: 3 spam' });
      expect((await page(flaggers[0]!, qid)).statusCode).toBe(200);
    });

    it("logs a moderator's edit of someone else's post", async () => {
      const qid = await askQuestion(t.app, author);
      const aid = await answerQuestion(t.app, author, qid);
      const edited = await call(moderator, 'PUT', `/api/answer/${aid}`, { text: 'Tidied up.', reason: 'Formatting' });
      expect(edited.statusCode).toBe(200);
      expect((await log())[0]).toMatchObject({
        action: 'edit',
        targetType: 'answer',
        targetId: aid,
        reason: 'Formatting',
      });
      await call(author, 'PUT', `/api/answer/${aid}`, { text: 'My own words again.' });
      expect((await log())[0]).toMatchObject({ action: 'edit', targetId: aid, moderator: moderator.username });
    });

    it("a moderator's delete outside the queue closes the item's flags and is logged", async () => {
      const qid = await askQuestion(t.app, flaggers[0]!);
      const aid = await answerQuestion(t.app, author, qid);
      await flag(flaggers[1]!, 'answer', aid, 'rude');
      expect(await inQueue('answer', aid)).toBeDefined();
      expect((await call(moderator, 'DELETE', `/api/answer/${aid}`)).statusCode).toBe(200);
      expect(await inQueue('answer', aid)).toBeUndefined();
      expect((await log())[0]).toMatchObject({
        action: 'delete',
        targetType: 'answer',
        targetId: aid,
        subject: author.username,
      });
      await call(moderator, 'POST', `/api/question/${qid}/close`, { reason: 'off-topic' });
      expect((await log())[0]).toMatchObject({
        action: 'close',
        targetType: 'question',
        targetId: qid,
        reason: 'off-topic',
      });
    });
  });

  describe('suspension', () => {
    it("ends the member's sessions and sockets, and refuses sign-in with the reason until then", async () => {
      const member = await registerUser(t.app);
      const socket = openSocket(t.url, { cookie: member.cookie });
      await connected(socket);
      const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      const bad = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: member.username,
        reason: ' ',
        days: 3,
      });
      expect(bad.json<{ error: string }>().error).toBe(MESSAGES.suspensionReasonEmpty);
      const badDays = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: member.username,
        reason: 'Spam',
        days: 0,
      });
      expect(badDays.json<{ error: string }>().error).toBe(MESSAGES.suspensionDays);
      expect((await call(member, 'GET', '/api/account/me')).statusCode).toBe(200);

      const suspended = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: member.username,
        reason: 'Posting spam',
        days: 3,
      });
      expect(suspended.statusCode).toBe(200);
      const until = suspended.json<{ suspendedUntil: string }>().suspendedUntil;
      expect(new Date(until).getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
      expect(await closed).toBe('io server disconnect');
      expect((await call(member, 'GET', '/api/account/me')).statusCode).toBe(401);

      const refused = await signIn(member.username, member.password);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        error: `This account is suspended until ${until.slice(0, 10)}: Posting spam`,
        code: 'suspended',
      });
      // A wrong password learns nothing of the suspension.
      expect((await signIn(member.username, 'wrong-password')).json<{ error: string }>().error).toBe(
        MESSAGES.invalidLogin,
      );

      const forGood = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: member.username,
        reason: 'Again',
        forever: true,
      });
      expect(forGood.json()).toEqual({ username: member.username, suspendedUntil: null });
      expect((await signIn(member.username, member.password)).json<{ error: string }>().error).toBe(
        'This account is suspended: Again',
      );
      expect((await log())[0]).toMatchObject({
        action: 'suspend',
        targetType: 'account',
        subject: member.username,
        reason: 'Again (for good)',
      });
    });

    it('needs days, or forever: never bans for good when days are left out, and a refusal changes nothing', async () => {
      const member = await registerUser(t.app);
      const before = await snapshot(t.app.db);
      const logBefore = await log();
      const refusals: Array<[object, string]> = [
        [{}, MESSAGES.suspensionDaysRequired],
        [{ days: null }, MESSAGES.suspensionDaysRequired],
        [{ forever: false }, MESSAGES.suspensionDaysRequired],
        [{ days: null, forever: false }, MESSAGES.suspensionDaysRequired],
        [{ days: 3, forever: true }, MESSAGES.suspensionDaysAndForever],
        [{ days: 0 }, MESSAGES.suspensionDays],
        [{ days: -2 }, MESSAGES.suspensionDays],
        [{ days: 1.5 }, MESSAGES.suspensionDays],
        [{ days: 3651 }, MESSAGES.suspensionDays],
        [{ days: '3' }, MESSAGES.suspensionDays],
        [{ forever: 'yes' }, 'forever must be true or false'],
      ];
      for (const [extra, message] of refusals) {
        const refused = await call(moderator, 'POST', '/api/moderation/suspend', {
          username: member.username,
          reason: 'Spam',
          ...extra,
        });
        expect([refused.statusCode, refused.json<{ error: string }>().error], JSON.stringify(extra)).toEqual([
          400,
          message,
        ]);
      }
      expect(await snapshot(t.app.db)).toEqual(before);
      expect(await log()).toEqual(logBefore);
      expect((await call(member, 'GET', '/api/account/me')).statusCode).toBe(200);

      const bounded = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: member.username,
        reason: 'Spam',
        days: 3650,
        forever: false,
      });
      expect(bounded.statusCode).toBe(200);
      expect(bounded.json<{ suspendedUntil: string | null }>().suspendedUntil).not.toBeNull();
    });

    it('suspends members only', async () => {
      const refused = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: admin.username,
        reason: 'No',
        days: 1,
      });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
        400,
        MESSAGES.onlyMembersSuspended,
      ]);
      const missing = await call(moderator, 'POST', '/api/moderation/suspend', {
        username: 'nobody_at_all',
        reason: 'x',
        days: 1,
      });
      expect(missing.statusCode).toBe(404);
    });
  });
});

describe.each(DATABASE_KINDS)('the post queue (NEW_ACCOUNT_APPROVAL=true) on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { NEW_ACCOUNT_APPROVAL: 'true' } });
    admin = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const ask = (user: TestUser) =>
    call(user, 'POST', '/api/addQuestion', {
      title: `Pending ${Date.now()}`,
      text: 'Is this seen?',
      tags: [{ name: 'queue', description: '' }],
      askedBy: user.username,
    });
  const newest = async (user: TestUser) =>
    (await call(user, 'GET', '/api/getQuestion?order=newest')).json<QuestionSummary[]>().map((row) => row._id);

  it("holds a new member's first two posts for approval; then they post straight away", async () => {
    const member = await registerUser(t.app);
    const reader = await registerUser(t.app);
    // An admin (a moderator) never waits.
    expect((await ask(admin)).json<Question>().held).toBeUndefined();

    const first = (await ask(member)).json<Question>();
    expect(first).toMatchObject({ deleted: true, held: 'approval' });
    expect(await newest(reader)).not.toContain(first._id);
    expect((await call(reader, 'GET', `/api/getQuestionById/${first._id}`)).statusCode).toBe(404);
    expect((await call(member, 'GET', `/api/getQuestionById/${first._id}`)).json<Question>().held).toBe('approval');

    const answeredQuestion = (await ask(admin)).json<Question>()._id;
    // Something newer than it, so that only an answer's activity would put it first.
    await ask(admin);
    const answered = await call(member, 'POST', '/api/answer/addAnswer', {
      qid: answeredQuestion,
      ans: { text: 'My first answer', ansBy: member.username },
    });
    expect(answered.json()).toMatchObject({ deleted: true, held: 'approval' });
    // A held answer shows no activity: its question does not rise in the active order.
    const active = (await call(reader, 'GET', '/api/getQuestion?order=active')).json<QuestionSummary[]>();
    expect(active[0]?._id).not.toBe(answeredQuestion);
    const queue = (await call(admin, 'GET', '/api/moderation/queue')).json<Queue>();
    expect(queue.items.map((item) => [item.targetType, item.heldFor])).toEqual([
      ['question', 'approval'],
      ['answer', 'approval'],
    ]);

    expect(
      (await call(admin, 'POST', '/api/moderation/dismiss', { targetType: 'question', targetId: first._id }))
        .statusCode,
    ).toBe(200);
    expect(await newest(reader)).toContain(first._id);
    // One approved: the next still waits; two approved: posts go straight through.
    const second = (await ask(member)).json<Question>();
    expect(second.held).toBe('approval');
    await call(admin, 'POST', '/api/moderation/dismiss', { targetType: 'question', targetId: second._id });
    const third = (await ask(member)).json<Question>();
    expect(third.held).toBeUndefined();
    expect(await newest(reader)).toContain(third._id);
    // Undeleting a held answer on its page is approving it too.
    const aid = answered.json<{ _id: string }>()._id;
    expect((await call(admin, 'POST', `/api/answer/${aid}/undelete`)).statusCode).toBe(200);
    const entries = (await call(admin, 'GET', '/api/moderation/log')).json<LogEntry[]>();
    expect(entries.slice(0, 3).map((entry) => entry.action)).toEqual(['approve', 'approve', 'approve']);
    const emptied = (await call(admin, 'GET', '/api/moderation/queue')).json<Queue>();
    expect(emptied.items).toEqual([]);
  });

  it('does not hold posts when the site does not ask for it', async () => {
    const plain = await startTestApp(kind);
    try {
      await registerUser(plain.app); // the first account is an admin
      const member = await registerUser(plain.app);
      const response = await plain.app.inject({
        method: 'POST',
        url: '/api/addQuestion',
        headers: { cookie: member.cookie },
        payload: {
          title: 'Straight',
          text: 'through',
          tags: [{ name: 'x', description: '' }],
          askedBy: member.username,
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json<Question>().held).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
