// Trust #23 item 6: a request is authenticated before its body is read, and each route's body
// limit fits its largest real body. An anonymous 1 MB body to a signed-in route gets 401 with
// its body unread (it is not even JSON); a body past a route's limit gets 413; real bodies
// with every text at its limit pass, even as ASCII-only JSON; JSON nested deeper than any real
// body is refused before it is parsed.
import net from 'node:net';
import { LIMITS, MESSAGES, PORPCHAT_THREAD_ID } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimitFor } from '../http/request-bodies.ts';
import { TOO_DEEP_MESSAGE } from '../plugins/bodies.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, sessionCookie, uniqueName, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const ONE_MEGABYTE = 1024 * 1024;
/** Exactly 1 MB (the old limit for every route) that is not JSON: parsing it would answer 400. */
const NOT_JSON = `{${'x'.repeat(ONE_MEGABYTE - 1)}`;

const SIGNED_IN_BODY_ROUTES: Array<['POST' | 'PUT', string]> = [
  ['POST', '/api/addQuestion'],
  ['POST', '/api/upvoteQuestion'],
  ['POST', '/api/downvoteQuestion'],
  ['POST', '/api/answer/addAnswer'],
  ['POST', '/api/comment/addComment'],
  ['POST', '/api/forum/addForum'],
  ['POST', '/api/message/readMessage'],
  ['POST', '/api/thread/addThread'],
  ['PUT', '/api/profile/updateBio'],
  ['POST', '/api/account/saveAccessibilitySettings'],
];
const OPEN_BODY_ROUTES = [
  '/api/account/addAccount',
  '/api/account/login',
  '/api/account/logout',
  '/api/message/addMessage',
];

/** JSON as an ASCII-only encoder writes it: every other character a \u escape (12 bytes for an emoji). */
function asciiJson(value: unknown): string {
  let out = '';
  for (const char of JSON.stringify(value)) {
    if (char.length === 1 && char.charCodeAt(0) < 0x7f) out += char;
    else for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** `count` characters, each an emoji: the most bytes a character can take in any JSON. */
const emoji = (count: number) => '😀'.repeat(count);

describe.each(DATABASE_KINDS)('request bodies on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let qid: string;

  const send = (method: 'POST' | 'PUT', url: string, payload: string, cookie?: string) =>
    t.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload,
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    qid = await askQuestion(t.app, alice);
  });
  afterAll(async () => t?.close());

  it.each(SIGNED_IN_BODY_ROUTES)(
    'answers an anonymous 1 MB body to %s %s with 401 without parsing it',
    async (method, url) => {
      const response = await send(method, url, NOT_JSON);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: MESSAGES.notSignedIn, code: expect.any(String) as string });
    },
  );

  it('answers an anonymous request to a signed-in route before its body has arrived, and closes it', async () => {
    const { hostname, port } = new URL(t.url);
    const socket = net.connect({ host: hostname, port: Number(port) });
    let received = '';
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write(
      `POST /api/addQuestion HTTP/1.1\r\nHost: ${t.url.slice('http://'.length)}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${ONE_MEGABYTE}\r\n\r\n{"title": "`,
    );
    // Only a few bytes of the megabyte are ever sent: the answer cannot wait for the rest.
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 401 /);
    expect(received.toLowerCase()).toContain('connection: close');
  });

  it.each(OPEN_BODY_ROUTES)('answers a 1 MB body to %s, open to visitors, with 413 unread', async (url) => {
    const response = await send('POST', url, NOT_JSON);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Request body is too large', code: expect.any(String) as string });
  });

  it('gives each route a limit that fits its largest real body: a byte more is 413', async () => {
    const limit = bodyLimitFor(LIMITS.commentMax + LIMITS.usernameMax);
    const comment = (size: number) => {
      const body = JSON.stringify({ id: qid, type: 'question', comment: { text: 'Padded.' } });
      return send('POST', '/api/comment/addComment', body.padEnd(size, ' '), alice.cookie);
    };
    expect((await comment(limit)).statusCode).toBe(200);
    expect((await comment(limit + 1)).statusCode).toBe(413);
    // Far past its largest real body, though under the 1 MB every route used to take.
    const question = JSON.stringify({ title: 'Padded', text: 'Padded.', tags: [{ name: 'padded' }] });
    expect((await send('POST', '/api/addQuestion', question.padEnd(400_000, ' '), alice.cookie)).statusCode).toBe(413);
  });

  it('takes real bodies with every text at its limit, written by an ASCII-only JSON encoder', async () => {
    const ok = async (method: 'POST' | 'PUT', url: string, body: unknown, cookie?: string) => {
      const response = await send(method, url, asciiJson(body), cookie);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response;
    };
    const tag = (i: number) => `${i}${emoji(LIMITS.tagNameMax - 1)}`;
    await ok(
      'POST',
      '/api/addQuestion',
      {
        title: emoji(LIMITS.titleMax),
        text: emoji(LIMITS.questionTextMax),
        tags: [1, 2, 3, 4, 5].map((i) => ({ name: tag(i), description: '' })),
        askedBy: alice.username,
      },
      alice.cookie,
    );
    await ok(
      'POST',
      '/api/answer/addAnswer',
      { qid, ans: { text: emoji(LIMITS.answerTextMax), ansBy: bob.username, ansDateTime: '', comments: [] } },
      bob.cookie,
    );
    await ok(
      'POST',
      '/api/comment/addComment',
      { id: qid, type: 'question', comment: { text: emoji(LIMITS.commentMax), commentBy: bob.username } },
      bob.cookie,
    );
    await ok('PUT', '/api/profile/updateBio', { username: bob.username, bio: emoji(LIMITS.bioMax) }, bob.cookie);
    await ok(
      'POST',
      '/api/forum/addForum',
      { name: emoji(LIMITS.forumNameMax), description: emoji(LIMITS.forumDescriptionMax), thread: '' },
      bob.cookie,
    );
    await ok('POST', '/api/upvoteQuestion', { qid, username: bob.username }, bob.cookie);
    await ok('POST', '/api/downvoteQuestion', { qid, username: bob.username }, bob.cookie);
    const thread = await ok('POST', '/api/thread/addThread', { accounts: [bob.username, alice.username] }, bob.cookie);
    const tid = thread.json<{ _id: string }>()._id;
    const message = await ok(
      'POST',
      '/api/message/addMessage',
      {
        tid,
        msg: { content: emoji(LIMITS.messageMax), sender: bob.username, messageDateTime: '', views: [], likes: [] },
      },
      bob.cookie,
    );
    await ok('POST', '/api/message/readMessage', { mid: message.json<{ _id: string }>()._id }, alice.cookie);
    const porpName = emoji(LIMITS.porpNameMax);
    await ok('POST', '/api/message/addMessage', {
      tid: PORPCHAT_THREAD_ID,
      msg: { content: emoji(LIMITS.messageMax), sender: porpName, messageDateTime: '', views: [porpName], likes: [] },
    });

    // An account whose every field is at its limit registers, signs in and saves its settings.
    const username = uniqueName('u').padEnd(LIMITS.usernameMax, 'x');
    const email = `${username}@${'e'.repeat(LIMITS.emailMax - username.length - 5)}.com`;
    const password = emoji(LIMITS.passwordMax);
    const createdAt = new Date().toISOString();
    await ok('POST', '/api/account/addAccount', { username, email, password, createdAt });
    const signedIn = await ok('POST', '/api/account/login', { username, password });
    const cookie = sessionCookie(signedIn);
    await ok(
      'POST',
      '/api/account/saveAccessibilitySettings',
      { username, email, createdAt, accessibilitySettings: { lowVision: true, colorBlindness: 'none' } },
      cookie,
    );
    await ok('POST', '/api/account/logout', {}, cookie);
  });

  it('refuses JSON nested deeper than any real body before parsing it', async () => {
    const deep = `{"title": ${'['.repeat(17)}${']'.repeat(17)}, "text": "x", "tags": [{"name": "x"}]}`;
    const response = await send('POST', '/api/addQuestion', deep, alice.cookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: TOO_DEEP_MESSAGE, code: expect.any(String) as string });
    // Brackets inside strings are text, not depth.
    const bracketed = await send(
      'POST',
      '/api/addQuestion',
      JSON.stringify({ title: '[[[[[[[[[[[[[[[[[[[[', text: '{{{{{{{{{{{{{{{{{{{{{{{{{{{', tags: [{ name: 'x' }] }),
      alice.cookie,
    );
    expect(bracketed.statusCode).toBe(200);
  });
});
