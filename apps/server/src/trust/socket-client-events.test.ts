// Trust #23 item 3: a socket hears a question's events only while it shows that question
// (showQuestions, the one event a client may send), and any other frame (an unknown event, a
// bad payload, binary, an ack, over 4 KB, more than 10 in 10 s) disconnects that socket only.
import { CLIENT_SOCKET_EVENTS, SOCKET_EVENTS } from '@porpoise/core';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll, showQuestions } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** A raw engine.io websocket that has completed the socket.io handshake (frames '0' then '40'). */
async function rawSocket(url: string, cookie: string): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`, {
    headers: { cookie },
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

/** Resolves once the server has closed `ws` (the test's timeout fails it otherwise). */
const closedByServer = (ws: WebSocket) =>
  new Promise<void>((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    ws.once('close', () => resolve());
  });

/** Resolves with the reason the server gave for disconnecting `socket`. */
const disconnected = (socket: Socket) =>
  new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

const ids = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe.each(DATABASE_KINDS)('socket client events on %s', (kind) => {
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
  const vote = (user: TestUser, qid: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/upvoteQuestion',
      headers: { cookie: user.cookie },
      payload: { qid, username: user.username },
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
    bob = await registerUser(t.app);
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => t.close());

  it('hears a vote on a question it shows and not on one it does not', async () => {
    const [shown, other] = [await askQuestion(t.app, alice), await askQuestion(t.app, alice)];
    const watcher = await open(bob);
    const otherWatcher = await open(alice);
    await Promise.all([showQuestions(watcher, [shown]), showQuestions(otherWatcher, [other])]);
    const seen = recordAll(watcher);

    // The vote on the other question reaches the socket showing it, and then the vote on
    // the shown one reaches the watcher: had the first reached the watcher, it came before.
    const otherHeard = nextEvent(otherWatcher, SOCKET_EVENTS.voteUpdate);
    expect((await vote(alice, other)).statusCode).toBe(200);
    expect(await otherHeard).toMatchObject({ qid: other });
    const shownHeard = nextEvent(watcher, SOCKET_EVENTS.voteUpdate);
    expect((await vote(alice, shown)).statusCode).toBe(200);
    expect(await shownHeard).toMatchObject({ qid: shown });
    expect(seen.map((event) => event.payload)).toEqual([{ qid: shown, upVotes: [alice.username], downVotes: [] }]);

    // A new set replaces the old one: the first question's events stop.
    await showQuestions(watcher, [other]);
    const next = nextEvent(watcher, SOCKET_EVENTS.voteUpdate);
    expect((await vote(bob, shown)).statusCode).toBe(200);
    expect((await vote(bob, other)).statusCode).toBe(200);
    expect(await next).toMatchObject({ qid: other });
  });

  it('sends a new question to every signed-in socket, and nothing of questions to an anonymous one', async () => {
    const signedIn = await open(bob);
    const anonymous = await open(null);
    await showQuestions(anonymous, [1, 2, 3]);
    const anonymousSeen = recordAll(anonymous);
    const heard = nextEvent<{ _id: string }>(signedIn, SOCKET_EVENTS.questionUpdate);
    const qid = await askQuestion(t.app, alice);
    expect((await heard)._id).toBe(qid);
    // The anonymous socket asked for the new question's room too; it is never joined.
    await showQuestions(anonymous, [Number(qid)]);
    const voted = nextEvent(signedIn, SOCKET_EVENTS.voteUpdate);
    await showQuestions(signedIn, [qid]);
    expect((await vote(alice, qid)).statusCode).toBe(200);
    await voted;
    expect(anonymousSeen).toEqual([]);
  });

  it.each<[string, string | Buffer]>([
    ['an unknown event', `42["join","signed-in"]`],
    ['an id that is text', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",["1"]]`],
    ['an id that is not positive', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",[0]]`],
    ['an object instead of ids', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",{"ids":[1]}]`],
    ['301 ids', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",${JSON.stringify(ids(301))}]`],
    ['a second argument', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",[1],[2]]`],
    ['an ack the server never asked for', '430[]'],
    ['a binary event', `451-["${CLIENT_SOCKET_EVENTS.showQuestions}",{"_placeholder":true,"num":0}]`],
    ['a binary frame', Buffer.from([4, 1, 2, 3])],
    ['a frame over 4 KB', `42["${CLIENT_SOCKET_EVENTS.showQuestions}",[${'1,'.repeat(2_100)}1]]`],
  ])('%s disconnects only the socket that sent it', async (_label, frame) => {
    const qid = await askQuestion(t.app, alice);
    const bystander = await open(bob);
    await showQuestions(bystander, [qid]);
    const attacker = await rawSocket(t.url, alice.cookie);
    attacker.send(frame);
    await closedByServer(attacker);
    const heard = nextEvent(bystander, SOCKET_EVENTS.voteUpdate);
    expect((await vote(alice, qid)).statusCode).toBe(200);
    expect(await heard).toMatchObject({ qid });
    expect(bystander.connected).toBe(true);
  });

  it('disconnects a socket that sends more than 10 events in 10 s, and only that one', async () => {
    const qid = await askQuestion(t.app, alice);
    const bystander = await open(bob);
    await showQuestions(bystander, [qid]);
    const fast = await open(alice);
    // 300 ids fit in a frame; 10 events are allowed.
    for (let i = 0; i < 10; i++) await showQuestions(fast, ids(300));
    const reason = disconnected(fast);
    fast.emit(CLIENT_SOCKET_EVENTS.showQuestions, [1]);
    expect(await reason).toBe('io server disconnect');
    const heard = nextEvent(bystander, SOCKET_EVENTS.voteUpdate);
    expect((await vote(alice, qid)).statusCode).toBe(200);
    expect(await heard).toMatchObject({ qid });
  });
});
