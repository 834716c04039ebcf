// Trust #15 item 4: a PorpChat message never says who read it or which account sent it
// (product.md sections 4 and 6), over HTTP and on sockets, for any reader.
import { SOCKET_EVENTS, type Message, type Thread } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, uniqueName, type TestUser } from '../test/factories.ts';
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

  const call = (user: TestUser | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user ? { cookie: user.cookie } : {}, ...(payload ? { payload } : {}) });
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
