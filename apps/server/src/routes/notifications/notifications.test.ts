// Issue 34: notifications, mentions, following and the email digest (docs/product.md section
// 11), on both databases, through the API, the event processor and real sockets.
import { MESSAGES, SOCKET_EVENTS, type Account, type Notification, type QuestionSummary } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { sweepReadNotifications } from '../../commands/digests.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import {
  accountIdOf,
  answerQuestion,
  askQuestion,
  callAs,
  registerUser,
  uniqueName,
  type Call,
  type TestUser,
} from '../../test/factories.ts';
import { startSmtpInbox, type SmtpInbox } from '../../test/smtp-inbox.ts';
import { connected, nextEvent, openSocket, recordAll } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

const PUBLIC = 'https://porpoise.example';

describe.each(DATABASE_KINDS)('notifications on %s', (kind) => {
  let t: TestApp;
  let inbox: SmtpInbox;
  let admin: TestUser;
  const call: Call = (...request) => callAs(t.app, ...request);

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp(kind, {
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Porpoise <porpoise@porpoise.example>' },
      configure: (config) => {
        config.linkBase = PUBLIC;
        config.mail.retryDelaysMs = [20, 20];
      },
    });
    admin = await registerUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  const inboxOf = async (user: TestUser, query = '') => {
    const response = await call(user, 'GET', `/api/notifications${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Notification[]>();
  };
  const unread = async (user: TestUser) =>
    (await call(user, 'GET', '/api/notifications/unreadCount')).json<{ count: number }>().count;
  const comment = async (user: TestUser, type: 'question' | 'answer', id: string, text: string) => {
    const response = await call(user, 'POST', '/api/comment/addComment', {
      id,
      type,
      comment: { text, commentBy: user.username },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ _id: string }>()._id;
  };
  const people = (count: number) => Promise.all(Array.from({ length: count }, () => registerUser(t.app)));

  it('tells the asker of an answer, with its actor, ids, a snippet, unread; never the answerer of their own', async () => {
    const [asker, answerer] = await people(2);
    const qid = await askQuestion(t.app, asker!, { title: 'How do I sort a map?' });
    expect(await unread(asker!)).toBe(0);
    const aid = await answerQuestion(t.app, answerer!, qid, 'Use **a TreeMap**: it keeps keys in order.');
    const [notification, ...rest] = await inboxOf(asker!);
    expect(rest).toEqual([]);
    expect(notification!._id).toMatch(/^\d+$/);
    expect(Date.parse(notification!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect({ ...notification, _id: 'id', createdAt: 'at' }).toEqual({
      _id: 'id',
      kind: 'answer',
      actor: answerer!.username,
      qid,
      aid,
      tid: null,
      snippet: 'Use a TreeMap: it keeps keys in order.',
      createdAt: 'at',
      read: false,
    });
    expect(await unread(asker!)).toBe(1);
    // The answerer hears nothing of their own answer; an asker answering their own question neither.
    expect(await inboxOf(answerer!)).toEqual([]);
    await answerQuestion(t.app, asker!, qid, 'Answering myself.');
    expect(await unread(asker!)).toBe(1);
  });

  it('tells the author of a commented post (comment kind, the answer commented on as aid)', async () => {
    const [asker, answerer, commenter] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    await comment(commenter!, 'answer', aid, 'Which version?');
    await comment(commenter!, 'question', qid, 'Nice question');
    const [onAnswer] = await inboxOf(answerer!);
    expect(onAnswer).toMatchObject({
      kind: 'comment',
      actor: commenter!.username,
      qid,
      aid,
      snippet: 'Which version?',
    });
    const [onQuestion] = await inboxOf(asker!);
    expect(onQuestion).toMatchObject({ kind: 'comment', qid, aid: null, snippet: 'Nice question' });
    // A comment on one's own post tells nobody.
    const before = await unread(answerer!);
    await comment(answerer!, 'answer', aid, 'Mine, edited later');
    expect(await unread(answerer!)).toBe(before);
  });

  it('mentions: once per post, the most specific kind first, only existing accounts, not in code', async () => {
    const [asker, answerer, named, other] = await people(4);
    const qid = await askQuestion(t.app, asker!);
    await answerQuestion(
      t.app,
      answerer!,
      qid,
      `@${asker!.username} see @${named!.username} and @${named!.username.toUpperCase()}, not \`@${other!.username}\` or @nobody_${Date.now()}`,
    );
    expect((await inboxOf(asker!)).map((n) => n.kind)).toEqual(['answer']);
    expect((await inboxOf(named!)).map((n) => [n.kind, n.qid])).toEqual([['mention', qid]]);
    expect(await inboxOf(other!)).toEqual([]);
    // In a question and a comment too; the question's title is its snippet.
    const mentioner = await registerUser(t.app);
    const asked = await askQuestion(t.app, mentioner, { title: 'Paging help', text: `cc @${other!.username}` });
    await comment(mentioner, 'question', asked, `@${other!.username} again`);
    expect((await inboxOf(other!)).map((n) => [n.kind, n.snippet])).toEqual([
      ['mention', `@${other!.username} again`],
      ['mention', 'Paging help'],
    ]);
  });

  it('tells followers of an answer (followedAnswer), the asker as answer; unfollowing stops it', async () => {
    const [asker, first, second, watcher] = await people(4);
    const qid = await askQuestion(t.app, asker!);
    await answerQuestion(t.app, first!, qid);
    expect((await call(watcher!, 'GET', `/api/question/${qid}/follow`)).json()).toEqual({ following: false });
    expect((await call(watcher!, 'POST', `/api/question/${qid}/follow`)).json()).toEqual({ following: true });
    expect((await call(watcher!, 'GET', `/api/question/${qid}/follow`)).json()).toEqual({ following: true });
    // Answering followed it: the first answerer hears of the second answer.
    expect((await call(first!, 'GET', `/api/question/${qid}/follow`)).json()).toEqual({ following: true });
    const aid = await answerQuestion(t.app, second!, qid);
    expect((await inboxOf(first!)).map((n) => [n.kind, n.aid])).toEqual([['followedAnswer', aid]]);
    expect((await inboxOf(watcher!)).map((n) => [n.kind, n.aid])).toEqual([['followedAnswer', aid]]);
    expect((await inboxOf(asker!)).map((n) => n.kind)).toEqual(['answer', 'answer']);
    // The asker unfollows, and still hears of answers; the watcher unfollows and does not.
    expect((await call(asker!, 'POST', `/api/question/${qid}/follow`)).json()).toEqual({ following: false });
    expect((await call(watcher!, 'POST', `/api/question/${qid}/follow`)).json()).toEqual({ following: false });
    await answerQuestion(t.app, (await people(1))[0]!, qid);
    expect((await inboxOf(asker!)).length).toBe(3);
    expect((await inboxOf(watcher!)).length).toBe(1);
    expect((await call(watcher!, 'POST', '/api/question/999999999/follow')).statusCode).toBe(404);
  });

  it('tells an answer author of the accept once, however often the mark moves', async () => {
    const [asker, answerer] = await people(2);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    const accept = () => call(asker!, 'POST', '/api/answer/acceptAnswer', { qid, aid });
    for (let i = 0; i < 3; i++) expect((await accept()).statusCode).toBe(200);
    expect((await inboxOf(answerer!)).map((n) => [n.kind, n.actor, n.aid])).toEqual([['accept', asker!.username, aid]]);
  });

  it('forum mentions carry the thread; direct ones reach only a participant; PorpChat none', async () => {
    const [poster, named, stranger] = await people(3);
    const forum = await call(poster!, 'POST', '/api/forum/addForum', { name: uniqueName('Forum'), description: 'x' });
    const tid = forum.json<{ thread: string }>().thread;
    const say = (tidOf: string, content: string) =>
      call(poster!, 'POST', '/api/message/addMessage', { tid: tidOf, msg: { content, sender: poster!.username } });
    expect((await say(tid, `hello @${named!.username}`)).statusCode).toBe(200);
    expect((await inboxOf(named!)).map((n) => [n.kind, n.tid, n.qid, n.snippet])).toEqual([
      ['mention', tid, null, `hello @${named!.username}`],
    ]);
    const started = await call(poster!, 'POST', '/api/thread/addThread', {
      accounts: [poster!.username, named!.username],
    });
    const direct = started.json<{ _id: string }>()._id;
    expect((await say(direct, `@${named!.username} and @${stranger!.username}`)).statusCode).toBe(200);
    expect((await inboxOf(named!)).map((n) => [n.kind, n.tid])).toEqual([
      ['mention', direct],
      ['mention', tid],
    ]);
    expect(await inboxOf(stranger!)).toEqual([]);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      payload: { tid: 'porpchat', msg: { content: `@${stranger!.username} hi`, sender: uniqueName('drift') } },
    });
    expect(anonymous.statusCode).toBe(200);
    expect((await say('porpchat', `@${stranger!.username} hi`)).statusCode).toBe(200);
    expect(await inboxOf(stranger!)).toEqual([]);
  });

  it('a deleted post takes its notifications out of the list and the count; undeleting brings them back', async () => {
    const [asker, answerer, commenter] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    await comment(commenter!, 'answer', aid, 'A comment');
    expect([await unread(asker!), await unread(answerer!)]).toEqual([1, 1]);
    expect((await call(answerer!, 'DELETE', `/api/answer/${aid}`)).statusCode).toBe(200);
    expect([await inboxOf(asker!), await inboxOf(answerer!)]).toEqual([[], []]);
    expect([await unread(asker!), await unread(answerer!)]).toEqual([0, 0]);
    expect((await call(answerer!, 'POST', `/api/answer/${aid}/undelete`)).statusCode).toBe(200);
    expect([await unread(asker!), await unread(answerer!)]).toEqual([1, 1]);
    // Read while hidden, it stays read when shown again; the whole question goes the same way.
    expect((await call(asker!, 'DELETE', `/api/question/${qid}`)).statusCode).not.toBe(500);
  });

  it('pages newest first with limit and before; markRead by ids (not another account’s) or all', async () => {
    const [asker, answerer, intruder] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    for (let i = 0; i < 5; i++) await comment(answerer!, 'question', qid, `Comment ${i}`);
    const all = await inboxOf(asker!);
    expect(all.map((n) => n.snippet)).toEqual(['Comment 4', 'Comment 3', 'Comment 2', 'Comment 1', 'Comment 0']);
    const first = await inboxOf(asker!, '?limit=2');
    const second = await inboxOf(asker!, `?limit=2&before=${first[1]!._id}`);
    const third = await inboxOf(asker!, `?limit=2&before=${second[1]!._id}`);
    expect([...first, ...second, ...third]).toEqual(all);
    expect((await call(asker!, 'GET', '/api/notifications?limit=51')).statusCode).toBe(400);

    const intruding = await call(intruder!, 'POST', '/api/notifications/markRead', { ids: [all[0]!._id] });
    expect(intruding.json()).toEqual({ count: 0 });
    expect(await unread(asker!)).toBe(5);
    const marked = await call(asker!, 'POST', '/api/notifications/markRead', { ids: [all[0]!._id, all[1]!._id] });
    expect(marked.json()).toEqual({ count: 3 });
    expect((await inboxOf(asker!)).map((n) => n.read)).toEqual([true, true, false, false, false]);
    // Marking again changes nothing; neither ids nor all is refused.
    expect((await call(asker!, 'POST', '/api/notifications/markRead', { ids: [all[0]!._id] })).json()).toEqual({
      count: 3,
    });
    const neither = await call(asker!, 'POST', '/api/notifications/markRead', {});
    expect([neither.statusCode, neither.json<{ error: string }>().error]).toEqual([400, MESSAGES.markReadWhich]);
    expect((await call(asker!, 'POST', '/api/notifications/markRead', { all: true })).json()).toEqual({ count: 0 });
    expect((await inboxOf(asker!)).every((n) => n.read)).toBe(true);
    expect((await call(null, 'GET', '/api/notifications')).statusCode).toBe(401);
  });

  it('reaches the recipient’s own sockets at once as notificationUpdate, nobody else’s', async () => {
    const [asker, answerer, bystander] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const mine = openSocket(t.url, { cookie: asker!.cookie });
    const theirs = openSocket(t.url, { cookie: bystander!.cookie });
    try {
      await Promise.all([connected(mine), connected(theirs)]);
      const heardByOthers = recordAll(theirs);
      const heard = nextEvent<Notification>(mine, SOCKET_EVENTS.notificationUpdate);
      const aid = await answerQuestion(t.app, answerer!, qid);
      const notification = await heard;
      expect(notification).toMatchObject({ kind: 'answer', actor: answerer!.username, qid, aid, read: false });
      expect(await inboxOf(asker!)).toEqual([notification]);
      // The bystander's socket is told nothing (a later event to it proves its queue was read).
      const own = nextEvent<Notification>(theirs, SOCKET_EVENTS.notificationUpdate);
      await comment(answerer!, 'question', await askQuestion(t.app, bystander!), 'to the bystander');
      await own;
      expect(heardByOthers.filter((e) => e.event === SOCKET_EVENTS.notificationUpdate)).toHaveLength(1);
    } finally {
      mine.disconnect();
      theirs.disconnect();
    }
  });

  it('tells the account’s own sockets the unread count when some are marked read, or their post hidden or shown', async () => {
    const [asker, answerer, bystander] = await people(3);
    const qid = await askQuestion(t.app, asker!);
    const aid = await answerQuestion(t.app, answerer!, qid);
    await comment(answerer!, 'question', qid, 'A comment on it');
    expect(await unread(asker!)).toBe(2);
    // Another tab of the asker's, and a bystander who must hear none of it.
    const otherTab = openSocket(t.url, { cookie: asker!.cookie });
    const theirs = openSocket(t.url, { cookie: bystander!.cookie });
    try {
      await Promise.all([connected(otherTab), connected(theirs)]);
      const heardByOthers = recordAll(theirs);
      const counted = () => nextEvent<{ count: number }>(otherTab, SOCKET_EVENTS.notificationCount);

      let next = counted();
      expect((await call(answerer!, 'DELETE', `/api/answer/${aid}`)).statusCode).toBe(200);
      expect(await next).toEqual({ count: 1 });
      next = counted();
      expect((await call(answerer!, 'POST', `/api/answer/${aid}/undelete`)).statusCode).toBe(200);
      expect(await next).toEqual({ count: 2 });
      const [newest] = await inboxOf(asker!);
      next = counted();
      await call(asker!, 'POST', '/api/notifications/markRead', { ids: [newest!._id] });
      expect(await next).toEqual({ count: 1 });
      next = counted();
      await call(asker!, 'POST', '/api/notifications/markRead', { all: true });
      expect(await next).toEqual({ count: 0 });
      // The bystander's socket heard none of it (a count of its own proves its queue was read).
      const own = nextEvent<{ count: number }>(theirs, SOCKET_EVENTS.notificationCount);
      await call(bystander!, 'POST', '/api/notifications/markRead', { all: true });
      expect(await own).toEqual({ count: 0 });
      expect(heardByOthers.filter((e) => e.event === SOCKET_EVENTS.notificationCount)).toHaveLength(1);
    } finally {
      otherTab.disconnect();
      theirs.disconnect();
    }
  });

  it('tags: follow toggles, me.followedTags, and the My tags list (cursor pages, cached, fresh after a write)', async () => {
    const [member, asker, reader] = await people(3);
    const tagA = uniqueName('ta').toLowerCase().slice(0, 20);
    const tagB = uniqueName('tb').toLowerCase().slice(0, 20);
    const q1 = await askQuestion(t.app, asker!, { tags: [tagA] });
    const q2 = await askQuestion(t.app, asker!, { tags: [tagA, tagB] });
    const q3 = await askQuestion(t.app, asker!, { tags: [tagB] });
    await askQuestion(t.app, asker!, { tags: ['elsewhere'] });
    const follow = (name: string) => call(member!, 'POST', `/api/tag/${name}/follow`);
    expect((await follow(tagA)).json()).toEqual({ following: true });
    expect((await follow(tagB.toUpperCase())).json()).toEqual({ following: true });
    expect((await call(member!, 'GET', '/api/account/me')).json<Account>().followedTags).toEqual([tagA, tagB].sort());
    expect((await follow('no-such-tag-here')).statusCode).toBe(404);

    const myTags = async (query = '') => {
      const response = await call(member!, 'GET', `/api/getQuestion?myTags=true${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response;
    };
    const ids = (response: Awaited<ReturnType<typeof myTags>>) => response.json<QuestionSummary[]>().map((q) => q._id);
    const all = await myTags();
    expect(ids(all)).toEqual([q3, q2, q1]);
    expect(all.headers['x-total-count']).toBe('3');
    const page1 = await myTags('&limit=2');
    expect(ids(page1)).toEqual([q3, q2]);
    const page2 = await myTags(`&limit=2&cursor=${String(page1.headers['x-next-cursor'])}`);
    expect(ids(page2)).toEqual([q1]);
    // In mostViewed order, by the counts the tags' own rows keep: q2 (in both tags) once.
    for (const viewer of [member!, reader!]) await call(viewer, 'GET', `/api/getQuestionById/${q1}`);
    await call(reader!, 'GET', `/api/getQuestionById/${q3}`);
    await t.app.events.flushViews();
    const viewed = await myTags('&order=mostViewed&limit=2');
    expect(ids(viewed)).toEqual([q1, q3]);
    const cursor = String(viewed.headers['x-next-cursor']);
    expect(ids(await myTags(`&order=mostViewed&limit=2&cursor=${cursor}`))).toEqual([q2]);
    // A new question in a followed tag shows at once (the cached page was dropped).
    const q4 = await askQuestion(t.app, asker!, { tags: [tagB] });
    expect(ids(await myTags())).toEqual([q4, q3, q2, q1]);
    // Unfollowing one leaves the other's.
    expect((await follow(tagA)).json()).toEqual({ following: false });
    expect(ids(await myTags())).toEqual([q4, q3, q2]);
    const both = await call(member!, 'GET', `/api/getQuestion?myTags=true&tag=${tagA}`);
    expect([both.statusCode, both.json<{ error: string }>().error]).toEqual([400, MESSAGES.myTagsAndTag]);
  });

  it('sweeps read notifications older than 180 days, and no unread or newer one', async () => {
    const [asker, answerer] = await people(2);
    const qid = await askQuestion(t.app, asker!);
    for (let i = 0; i < 3; i++) await comment(answerer!, 'question', qid, `Comment ${i}`);
    const [newest, middle, oldest] = await inboxOf(asker!);
    await call(asker!, 'POST', '/api/notifications/markRead', { ids: [newest!._id, oldest!._id] });
    // The oldest (read) and the middle one (unread) were written 181 days ago.
    await queryRows(
      t.app.db,
      sql`update notifications set created_at = now() - interval '181 days'
        where id = any(${sql.param([Number(oldest!._id), Number(middle!._id)])}::bigint[])`,
    );
    expect(await sweepReadNotifications(t.app.db)).toBe(1);
    expect((await inboxOf(asker!)).map((n) => n._id)).toEqual([newest!._id, middle!._id]);
  });

  it('a post notifies at most 50 of the accounts it mentions', async () => {
    const named = await people(51);
    const [asker, answerer] = await people(2);
    const qid = await askQuestion(t.app, asker!);
    await answerQuestion(t.app, answerer!, qid, named.map((user) => `@${user.username}`).join(' '));
    const counts = await Promise.all(named.map(unread));
    expect(counts.slice(0, 50)).toEqual(Array(50).fill(1));
    expect(counts[50]).toBe(0);
  });

  describe('the email digest', () => {
    const run = async () => {
      const response = await call(admin, 'POST', '/api/admin/digests/run');
      expect(response.statusCode, response.body).toBe(200);
      await t.app.mailer.idle();
      return response.json<{ sent: number }>().sent;
    };
    const digestsTo = (user: TestUser) =>
      inbox.mails.filter(
        (mail) => mail.to.includes(user.email.toLowerCase()) && mail.subject === 'Your Porpoise digest',
      );

    it('is weekly by default, set with PUT /api/account/digest, for admins to run (others 403)', async () => {
      const [member] = await people(1);
      expect((await call(member!, 'GET', '/api/account/me')).json<Account>().digest).toBe('weekly');
      const set = await call(member!, 'PUT', '/api/account/digest', { digest: 'daily' });
      expect([set.statusCode, set.json<Account>().digest]).toEqual([200, 'daily']);
      const bad = await call(member!, 'PUT', '/api/account/digest', { digest: 'hourly' });
      expect([bad.statusCode, bad.json<{ error: string }>().error]).toEqual([400, MESSAGES.digestChoice]);
      expect((await call(member!, 'POST', '/api/admin/digests/run')).statusCode).toBe(403);
      expect((await call(null, 'POST', '/api/admin/digests/run')).statusCode).toBe(401);
    });

    it('is sent when due with something to say, with one-click unsubscribe; not again until its period passed', async () => {
      await run(); // whatever earlier tests left due
      const [asker, answerer, quiet] = await people(3);
      const qid = await askQuestion(t.app, asker!, { title: 'Digest-worthy question' });
      await answerQuestion(t.app, answerer!, qid, 'An answer worth a digest');
      expect(await run()).toBe(1);
      const [mail, ...more] = digestsTo(asker!);
      expect(more).toEqual([]);
      expect(mail!.text).toContain(`${answerer!.username} answered your question: An answer worth a digest`);
      expect(digestsTo(quiet!)).toEqual([]);
      const unsubscribe = mail!.headers.get('list-unsubscribe') ?? '';
      expect(unsubscribe).toMatch(new RegExp(`^<${PUBLIC}/api/digest/unsubscribe\\?token=[0-9a-f]{32}>$`));
      expect(mail!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const token = unsubscribe.slice(unsubscribe.indexOf('token=') + 6, -1);
      expect(mail!.text).toContain(`${PUBLIC}/unsubscribe?token=${token}`);

      // Something new, but the week has not passed: nothing more is sent to the asker.
      await answerQuestion(t.app, (await people(1))[0]!, qid);
      await run();
      expect(digestsTo(asker!)).toHaveLength(1);
      // A week later (its last digest moved back), it is due again.
      const accountId = await accountIdOf(t.app, asker!.username);
      await queryRows(
        t.app.db,
        sql`update accounts set last_digest_at = now() - interval '7 days 1 minute' where id = ${accountId}`,
      );
      await run();
      expect(digestsTo(asker!)).toHaveLength(2);

      // The one-click POST (RFC 8058): no cookie, a form body; the digest is off.
      const oneClick = await t.app.inject({
        method: 'POST',
        url: `/api/digest/unsubscribe?token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.statusCode, oneClick.body).toBe(200);
      expect((await call(asker!, 'GET', '/api/account/me')).json<Account>().digest).toBe('off');
      const wrong = await t.app.inject({ method: 'POST', url: `/api/digest/unsubscribe?token=${'0'.repeat(32)}` });
      expect([wrong.statusCode, wrong.json<{ error: string }>().error]).toEqual([400, MESSAGES.unsubscribeInvalid]);
      await queryRows(
        t.app.db,
        sql`update accounts set last_digest_at = now() - interval '8 days' where id = ${accountId}`,
      );
      await answerQuestion(t.app, (await people(1))[0]!, qid);
      await run();
      expect(digestsTo(asker!)).toHaveLength(2);
    });

    it('carries the week’s top questions in followed tags; nothing to a suspended account', async () => {
      await run();
      const [reader, asker, suspended] = await people(3);
      const tag = uniqueName('dg').toLowerCase().slice(0, 20);
      await askQuestion(t.app, asker!, { tags: [tag], title: 'Top of the week' });
      for (const user of [reader!, suspended!]) {
        expect((await call(user, 'POST', `/api/tag/${tag}/follow`)).statusCode).toBe(200);
      }
      const suspending = await call(admin, 'POST', '/api/moderation/suspend', {
        username: suspended!.username,
        reason: 'Testing digests',
        days: 3,
      });
      expect(suspending.statusCode, suspending.body).toBe(200);
      expect(await run()).toBe(1);
      expect(digestsTo(reader!)[0]!.text).toContain('Top of the week (0 votes, 0 answers)');
      expect(digestsTo(suspended!)).toEqual([]);
    });
  });
});

describe.each(DATABASE_KINDS)('notifications of held posts (NEW_ACCOUNT_APPROVAL=true) on %s', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { NEW_ACCOUNT_APPROVAL: 'true' } });
    admin = await registerUser(t.app);
  });
  afterAll(async () => t?.close());
  const call: Call = (...request) => callAs(t.app, ...request);

  it('tell nobody while held, and show once a moderator lets the post through', async () => {
    const qid = await askQuestion(t.app, admin);
    const newcomer = await registerUser(t.app);
    const answered = await call(newcomer, 'POST', '/api/answer/addAnswer', {
      qid,
      ans: { text: 'A first answer', ansBy: newcomer.username },
    });
    expect(answered.json<{ held?: string }>().held).toBe('approval');
    const aid = answered.json<{ _id: string }>()._id;
    const unread = async () => (await call(admin, 'GET', '/api/notifications/unreadCount')).json<{ count: number }>();
    expect(await unread()).toEqual({ count: 0 });
    expect((await call(admin, 'GET', '/api/notifications')).json()).toEqual([]);
    const approved = await call(admin, 'POST', '/api/moderation/dismiss', { targetType: 'answer', targetId: aid });
    expect(approved.statusCode).toBe(200);
    expect(await unread()).toEqual({ count: 1 });
    expect((await call(admin, 'GET', '/api/notifications')).json<Notification[]>().map((n) => [n.kind, n.aid])).toEqual(
      [['answer', aid]],
    );
  });
});

describe('the email digest across two processes on postgres', () => {
  let t: TestApp;
  let second: TestApp;
  let inbox: SmtpInbox;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    t = await startTestApp('postgres', { env: { SMTP_URL: inbox.url } });
    second = await startTestApp('postgres', { databaseUrl: t.app.database.url, env: { SMTP_URL: inbox.url } });
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await inbox?.close();
  });

  it('is sent once when both processes run at the same time', async () => {
    const [asker, answerer] = [await registerUser(t.app), await registerUser(second.app)];
    await answerQuestion(t.app, answerer, await askQuestion(t.app, asker));
    const sent = await Promise.all([t.app.digests.run(), second.app.digests.run()]);
    await Promise.all([t.app.mailer.idle(), second.app.mailer.idle()]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(inbox.mails.filter((mail) => mail.subject === 'Your Porpoise digest').map((mail) => mail.to)).toEqual([
      [asker.email.toLowerCase()],
    ]);
  });
});
