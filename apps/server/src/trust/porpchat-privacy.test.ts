// Trust #15 item 4: a PorpChat message never says who read it or which account sent it
// (docs/product.md sections 4 and 6), over HTTP and on sockets, for any reader.
import { MESSAGES, SOCKET_EVENTS, type Message, type Thread } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { type Call, callAs, registerUser, type TestUser, uniqueName } from '../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

interface MessageUpdate {
  result: { tid: string; message: Message };
}

describe.each(DATABASE_KINDS)('PorpChat privacy on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];
  const open = async (user: TestUser | null) => {
    const socket = openSocket(t.url, user ? { cookie: user.cookie } : {});
    sockets.push(socket);
    await connected(socket);
    return socket;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob] = [await registerUser(t.app), await registerUser(t.app)];
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const post = (user: TestUser | null, content: string, sender: string) =>
    call(user, 'POST', '/api/message/addMessage', {
      tid: 'porpchat',
      msg: { content, sender, messageDateTime: new Date().toISOString(), views: [sender], likes: [] },
    });
  const porpchat = async (reader: TestUser | null) => {
    const response = await call(reader, 'GET', '/api/thread/getThreadById/porpchat');
    expect(response.statusCode).toBe(200);
    return response;
  };

  it("shows views: [] for a member's post read by others, and no payload names the member behind an alias", async () => {
    const alias = uniqueName('nemo');
    const [anonymous, signedIn] = [await open(null), await open(bob)];
    const heard = [recordAll(anonymous), recordAll(signedIn)];
    const arrivals = [anonymous, signedIn].map((socket) =>
      nextEvent<MessageUpdate>(socket, SOCKET_EVENTS.messageUpdate),
    );

    const posted = await post(alice, 'Guess who', alias);
    expect(posted.statusCode).toBe(200);
    const message = posted.json<Message>();
    expect(message).toMatchObject({ content: 'Guess who', sender: alias, views: [] });

    for (const update of await Promise.all(arrivals)) {
      expect(update.result).toMatchObject({ tid: 'porpchat', message: { _id: message._id, sender: alias, views: [] } });
    }

    // Others read it: a signed-in member (who also asks for it to be marked read) and a visitor.
    expect((await call(bob, 'POST', '/api/message/readMessage', { mid: message._id })).statusCode).toBe(200);
    const reads = [await porpchat(bob), await porpchat(null), await porpchat(alice)];
    for (const read of reads) {
      const shown = read.json<Thread>().messages.find((m) => m._id === message._id);
      expect(shown).toMatchObject({ sender: alias, views: [] });
    }

    const payloads = [posted.body, ...reads.map((read) => read.body), JSON.stringify(heard)];
    for (const payload of payloads) expect(payload).not.toContain(alice.username);
    expect(heard.flat().length).toBeGreaterThanOrEqual(2);
  });

  it("the review queue shows a PorpChat message's typed name only; Suspend on it suspends the account unnamed", async () => {
    // alice registered first: she is the admin, the moderator here.
    const carol = await registerUser(t.app);
    const alias = uniqueName('ghost');
    const moderating = await open(alice);
    const heard = recordAll(moderating);
    const posted = await post(carol, 'Cheap pills', alias);
    const mid = posted.json<Message>()._id;
    const review = nextEvent<{ item: unknown }>(moderating, SOCKET_EVENTS.reviewUpdate);
    expect(
      (await call(bob, 'POST', '/api/flag', { targetType: 'message', targetId: mid, reason: 'spam' })).statusCode,
    ).toBe(200);
    const expected = {
      targetType: 'message',
      targetId: mid,
      since: expect.any(String) as string,
      heldFor: null,
      flagCounts: { spam: 1, rude: 0, 'off-topic': 0, other: 0 },
      flags: [{ reason: 'spam', note: null, by: bob.username, at: expect.any(String) as string }],
      author: alias,
      suspendable: true,
      authorSuspended: false,
      context: 'PorpChat',
      text: 'Cheap pills',
      questionId: null,
      threadId: 'porpchat',
    };
    expect((await review).item).toEqual(expected);
    const queue = await call(alice, 'GET', '/api/moderation/queue');
    const item = queue.json<{ items: Array<{ targetId: string }> }>().items.find((row) => row.targetId === mid);
    expect(item).toEqual(expected);

    const suspended = await call(alice, 'POST', '/api/moderation/suspend', {
      targetType: 'message',
      targetId: mid,
      reason: 'Spam',
      days: 2,
    });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toEqual({ username: null, suspendedUntil: expect.any(String) as string });
    // That account, and only it, is suspended.
    expect((await call(carol, 'GET', '/api/account/me')).statusCode).toBe(401);
    expect((await call(bob, 'GET', '/api/account/me')).statusCode).toBe(200);
    const log = await call(alice, 'GET', '/api/moderation/log');
    expect(log.json<unknown[]>()[0]).toMatchObject({
      action: 'suspend',
      targetType: 'message',
      targetId: mid,
      subject: null,
    });
    for (const payload of [queue.body, suspended.body, log.body, JSON.stringify(heard)]) {
      expect(payload).not.toContain(carol.username);
    }

    // A visitor's PorpChat message has no account to suspend.
    const anonymous = await post(null, 'Spam from nowhere', uniqueName('drifter'));
    const refused = await call(alice, 'POST', '/api/moderation/suspend', {
      targetType: 'message',
      targetId: anonymous.json<Message>()._id,
      reason: 'Spam',
      days: 2,
    });
    expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([400, MESSAGES.noAccountToSuspend]);
  });

  it('records no read receipt for any PorpChat message, even one posted under the own name', async () => {
    const listener = await open(null);
    const arrival = nextEvent<MessageUpdate>(listener, SOCKET_EVENTS.messageUpdate);
    const posted = await post(alice, 'It is me', alice.username);
    expect(posted.statusCode).toBe(200);
    expect(posted.json<Message>()).toMatchObject({ sender: alice.username, views: [] });
    expect((await arrival).result.message.views).toEqual([]);
    await porpchat(bob);
    const [receipts] = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from message_reads r join messages m on m.id = r.message_id
        join threads th on th.id = m.thread_id where th.kind = 'porpchat'`,
    );
    expect(Number(receipts?.n)).toBe(0);
    for (const read of [await porpchat(bob), await porpchat(null)]) {
      for (const shown of read.json<Thread>().messages) expect(shown.views).toEqual([]);
    }
  });
});
