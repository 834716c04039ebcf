import { SOCKET_EVENTS } from '@porpoise/core';
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
import { connected, nextEvent, openSocket } from '../../test/sockets.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Review = SocketPayloads['reviewUpdate'];
type Queue = { items: Array<NonNullable<Review['item']>>; open: number };
type LogEntry = { action: string; targetType: string; targetId: string; moderator: string; subject: string | null };

/**
 * "A decision on flagged content closes its flags and is logged, whoever makes it, the
 * post's own author included" (docs/product.md section 10), on both databases.
 */
describe.each(DATABASE_KINDS)("decisions on one's own flagged posts on %s", (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let flaggers: TestUser[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await registerUser(t.app);
    flaggers = [
      await registerTrustedFlagger(t.app),
      await registerTrustedFlagger(t.app),
      await registerTrustedFlagger(t.app),
    ];
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const flag = (user: TestUser, targetType: string, targetId: string, reason: string) =>
    call(user, 'POST', '/api/flag', { targetType, targetId, reason });
  const inQueue = async (targetType: string, targetId: string) =>
    (await call(admin, 'GET', '/api/moderation/queue'))
      .json<Queue>()
      .items.find((item) => item.targetType === targetType && item.targetId === targetId);
  const latestLog = async () => (await call(admin, 'GET', '/api/moderation/log')).json<LogEntry[]>()[0];

  /** Runs `act` and resolves with the review queue's update it made, as an admin's socket hears it. */
  async function reviewUpdateOf(act: () => Promise<{ statusCode: number }>): Promise<Review> {
    const socket = openSocket(t.url, { cookie: admin.cookie });
    try {
      await connected(socket);
      const heard = nextEvent<Review>(socket, SOCKET_EVENTS.reviewUpdate);
      expect((await act()).statusCode).toBe(200);
      return await heard;
    } finally {
      socket.disconnect();
    }
  }

  it('a moderator undeleting or deleting their own post the flags hid closes its flags, and is logged', async () => {
    const member = await registerUser(t.app);
    const kept = await askQuestion(t.app, member);
    const removed = await askQuestion(t.app, member);
    for (const qid of [kept, removed]) {
      for (const user of flaggers) expect((await flag(user, 'question', qid, 'spam')).statusCode).toBe(200);
      expect(await inQueue('question', qid)).toMatchObject({ heldFor: 'flags' });
    }
    // Hidden while a member; a moderator now.
    const promoted = await call(admin, 'PUT', `/api/admin/users/${member.username}/role`, { role: 'moderator' });
    expect(promoted.statusCode).toBe(200);

    const undone = await reviewUpdateOf(() => call(member, 'POST', `/api/question/${kept}/undelete`));
    expect(undone).toMatchObject({ targetType: 'question', targetId: kept, item: null });
    expect(await inQueue('question', kept)).toBeUndefined();
    expect(await latestLog()).toMatchObject({
      action: 'dismiss',
      targetType: 'question',
      targetId: kept,
      moderator: member.username,
      subject: member.username,
      reason: 'flags: 3 spam',
    });
    expect((await call(flaggers[0]!, 'GET', `/api/getQuestionById/${kept}`)).statusCode).toBe(200);

    const deleted = await reviewUpdateOf(() => call(member, 'DELETE', `/api/question/${removed}`));
    expect(deleted).toMatchObject({ targetType: 'question', targetId: removed, item: null });
    expect(await inQueue('question', removed)).toBeUndefined();
    expect(await latestLog()).toMatchObject({
      action: 'delete',
      targetId: removed,
      moderator: member.username,
      reason: 'flags: 3 spam',
    });
  });

  it('an author deleting their own flagged post closes its flags and is logged; an unflagged one is not', async () => {
    const asker = await registerUser(t.app);
    const author = await registerUser(t.app);
    const qid = await askQuestion(t.app, asker);
    const flagged = await answerQuestion(t.app, author, qid, 'Flagged once.');
    const plain = await answerQuestion(t.app, author, qid, 'Never flagged.');
    expect((await flag(flaggers[0]!, 'answer', flagged, 'rude')).statusCode).toBe(200);
    expect(await inQueue('answer', flagged)).toMatchObject({ heldFor: null });

    const update = await reviewUpdateOf(() => call(author, 'DELETE', `/api/answer/${flagged}`));
    expect(update).toMatchObject({ targetType: 'answer', targetId: flagged, item: null });
    expect(await inQueue('answer', flagged)).toBeUndefined();
    const entry = await latestLog();
    expect(entry).toMatchObject({
      action: 'delete',
      targetType: 'answer',
      targetId: flagged,
      moderator: author.username,
      subject: author.username,
      reason: 'flags: 1 rude',
    });

    expect((await call(author, 'DELETE', `/api/answer/${plain}`)).statusCode).toBe(200);
    expect(await latestLog()).toEqual(entry);
  });
});
