// Trust cases 21 and 25: garbage, odd and oversized frames close only the socket that sent
// them; a client cannot join a room by asking, and a third socket hears no one else's thread.
import { SOCKET_EVENTS } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, type TestUser } from '../test/factories.ts';
import { connected, openSocket, pause, recordAll } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** A raw engine.io websocket that has completed the socket.io handshake (frames '0' then '40'). */
async function rawSocket(url: string, cookie?: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
    headers: cookie ? { cookie } : {},
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = data.toString();
      if (frame.startsWith('0')) ws.send('40');
      if (frame.startsWith('40')) resolve();
      if (frame === '2') ws.send('3');
    });
  });
  return ws;
}

const closed = (ws: WebSocket, ms = 3_000) =>
  new Promise<boolean>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    ws.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

describe.each(DATABASE_KINDS)('socket abuse on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob, eve] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  });
  afterAll(async () => t.close());

  it.each([
    ['a garbage frame', 'this is not socket.io'],
    ['an event name that is an object', '42[{"room":"signed-in"},"x"]'],
    ['a packet of unknown type', '49["x"]'],
    ['an oversized frame', `42["x","${'a'.repeat(200_000)}"]`],
  ])('%s closes only that socket', async (_label, frame) => {
    const bystander = openSocket(t.url, { cookie: bob.cookie });
    await connected(bystander);
    const attacker = await rawSocket(t.url, alice.cookie);
    attacker.send(frame);
    expect(await closed(attacker)).toBe(true);
    await pause(100);
    expect(bystander.connected).toBe(true);
    expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);
    bystander.disconnect();
  });

  it('does not let a client join a room by asking', async () => {
    const tid = (
      await t.app.inject({
        method: 'POST',
        url: '/api/thread/addThread',
        headers: { cookie: alice.cookie },
        payload: { accounts: [alice.username, bob.username] },
      })
    ).json<{ _id: string }>()._id;
    const eavesdropper = openSocket(t.url, { cookie: eve.cookie });
    await connected(eavesdropper);
    const seen = recordAll(eavesdropper);
    for (const room of ['user:1', 'user:2', `thread:${tid}`, 'signed-in']) {
      eavesdropper.emit('join', room);
      eavesdropper.emit('subscribe', { room });
    }
    await pause(100);
    for (let i = 0; i < 3; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/message/addMessage',
        headers: { cookie: alice.cookie },
        payload: { tid, msg: { content: `secret ${i}` } },
      });
      await t.app.inject({
        method: 'POST',
        url: '/api/message/addMessage',
        headers: { cookie: bob.cookie },
        payload: { tid, msg: { content: `reply ${i}` } },
      });
    }
    await pause(500);
    expect(
      seen.filter((e) => e.event === SOCKET_EVENTS.messageUpdate || e.event === SOCKET_EVENTS.threadUpdate),
    ).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain('secret');
    eavesdropper.disconnect();
  });
});
