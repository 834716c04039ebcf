// Trust #31 item 10: the link rule holds for every link (docs/product.md section 8): comments and
// forum, direct and PorpChat messages take inline Markdown, and a `[text](url)` there that
// is not https:// with something after it, or has empty text, is refused as in a post.
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser, uniqueName } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const BAD_LINKS = [
  'See [x](http://a.b) here',
  'See [](https://a.b) here',
  'See [x](https://) here',
  'See [x](javascript:alert(1)) here',
];

describe.each(DATABASE_KINDS)('links in comments and messages on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let qid: string;
  let aid: string;
  let forumThread: string;
  let direct: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    [alice, bob] = [await registerUser(t.app), await registerUser(t.app)];
    qid = await askQuestion(t.app, alice);
    aid = await answerQuestion(t.app, bob, qid);
    const forum = await call(alice, '/api/forum/addForum', { name: uniqueName('Forum'), description: 'About links' });
    forumThread = forum.json<{ thread: string }>().thread;
    const thread = await call(alice, '/api/thread/addThread', { accounts: [alice.username, bob.username] });
    direct = thread.json<{ _id: string }>()._id;
  });
  afterAll(async () => t.close());

  const call = (user: TestUser | null, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: user ? { cookie: user.cookie } : {}, payload });
  const comment = (type: 'question' | 'answer', id: string, text: string) =>
    call(alice, '/api/comment/addComment', { id, type, comment: { text, commentBy: alice.username } });
  const message = (user: TestUser | null, tid: string, content: string) =>
    call(user, '/api/message/addMessage', { tid, msg: { content, sender: user?.username ?? uniqueName('guest') } });

  it("refuses a comment with a bad link with 'Invalid hyperlink format.' and stores nothing", async () => {
    const before = await snapshot(t.app.db);
    for (const text of BAD_LINKS) {
      for (const [type, id] of [
        ['question', qid],
        ['answer', aid],
      ] as const) {
        const refused = await comment(type, id, text);
        expect([refused.statusCode, refused.json<{ error: string }>().error], text).toEqual([
          400,
          MESSAGES.invalidHyperlink,
        ]);
      }
    }
    expect(await snapshot(t.app.db)).toEqual(before);
    // A good link, a bare address and code that looks like a link are fine.
    expect((await comment('question', qid, 'See [x](https://a.b) or https://c.d here')).statusCode).toBe(200);
    expect((await comment('answer', aid, 'Call `handlers[0](event)` here')).statusCode).toBe(200);
  });

  it("refuses a forum, direct or PorpChat message with a bad link with 'Invalid hyperlink format.' and stores nothing", async () => {
    const before = await snapshot(t.app.db);
    for (const text of BAD_LINKS) {
      for (const [user, tid] of [
        [alice, forumThread],
        [alice, direct],
        [null, 'porpchat'],
        [bob, 'porpchat'],
      ] as const) {
        const refused = await message(user, tid, text);
        expect([refused.statusCode, refused.json<{ error: string }>().error], `${tid}: ${text}`).toEqual([
          400,
          MESSAGES.invalidHyperlink,
        ]);
      }
    }
    expect(await snapshot(t.app.db)).toEqual(before);
    expect((await message(alice, direct, 'See [x](https://a.b)')).statusCode).toBe(200);
    expect((await message(null, 'porpchat', 'See [x](https://a.b)')).statusCode).toBe(200);
  });
});
