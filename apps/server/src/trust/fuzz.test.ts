// Trust case 22: random valid-shaped and invalid bodies, queries and ids sent to every API
// route never produce a 500 or a crash, and a refused request changes nothing. Issue 15
// item 1: 30,000-character texts built against backtracking matchers, sent to every route
// that takes text, are answered without holding the event loop.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const LONG = 30_000;
const fill = (unit: string) => unit.repeat(Math.ceil(LONG / unit.length)).slice(0, LONG);
/** Texts that make a backtracking matcher retry from every position (a link pattern took 0.63 s on 29,000 `[`). */
const ADVERSARIAL: Record<string, string> = {
  '[': fill('['),
  '(': fill('('),
  '*': fill('*'),
  backticks: fill('`'),
  '>': fill('>'),
  '](': fill(']('),
  '[a](': fill('[a]('),
  mixed: fill('[*(`>](a)[b](https://x'),
  'valid links': fill('[docs](https://example.com/a?b=1) '),
  '[ then ]': `${fill('[').slice(1)}]`,
  'spaces and [': fill(' ['),
};

/**
 * CPU time of the thread this test and the app's event loop run on, in milliseconds: Linux's
 * /proc/self/task/PID/stat (10 ms ticks). The embedded database's own thread is left out, as
 * PostgreSQL's processes are: the first 30,000-character question into a just-loaded test
 * cluster cost the process 274 ms, 30 ms of them on the event loop. Elsewhere, the whole
 * process's CPU time.
 */
function eventLoopCpuMs(): number {
  if (isMainThread && process.platform === 'linux') {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // After the command name's ')': state is the first field, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

/**
 * Starts measuring the CPU time the event loop's thread spends; the returned function gives
 * it in milliseconds. Work on the event loop holds it exactly that long; unlike wall time, it
 * does not grow when a busy machine leaves the process waiting for a core.
 */
function measureCpu(): () => number {
  const start = eventLoopCpuMs();
  return () => eventLoopCpuMs() - start;
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', "%' --", '1 OR 1=1', '<script>alert(1)</script>', 'x'.repeat(40_000)),
  fc.constantFrom(...Object.values(ADVERSARIAL)),
);
const id = fc.oneof(
  fc.nat().map(String),
  fc.integer(),
  fc.double(),
  text,
  fc.constant(null),
  fc.array(fc.nat()),
  fc.object(),
);
const anything = fc.oneof(fc.anything(), fc.jsonValue());
/** Percent-encodes any string, lone surrogates included (as the bytes a careless client would send). */
const encode = (value: string) =>
  value.isWellFormed() ? encodeURIComponent(value) : '%ED%A0%80' + encodeURIComponent(value.toWellFormed());

/** Each route with generators for a body of roughly the right shape, and for anything at all. */
const ROUTES: Array<{ method: 'GET' | 'POST' | 'PUT'; url: (v: string) => string; body?: fc.Arbitrary<unknown> }> = [
  {
    method: 'POST',
    url: () => '/api/account/addAccount',
    body: fc.record({ username: text, email: text, password: text }),
  },
  { method: 'POST', url: () => '/api/account/login', body: fc.record({ username: text, password: text }) },
  {
    method: 'POST',
    url: () => '/api/addQuestion',
    body: fc.record({
      title: text,
      text,
      tags: fc.oneof(fc.array(fc.record({ name: text })), anything),
      askedBy: text,
    }),
  },
  { method: 'POST', url: () => '/api/upvoteQuestion', body: fc.record({ qid: id, username: text }) },
  { method: 'POST', url: () => '/api/downvoteQuestion', body: fc.record({ qid: id }) },
  {
    method: 'POST',
    url: () => '/api/answer/addAnswer',
    body: fc.record({ qid: id, ans: fc.oneof(fc.record({ text, ansBy: text }), anything) }),
  },
  {
    method: 'POST',
    url: () => '/api/comment/addComment',
    body: fc.record({ id, type: fc.oneof(fc.constantFrom('question', 'answer'), text), comment: fc.record({ text }) }),
  },
  { method: 'PUT', url: () => '/api/profile/updateBio', body: fc.record({ username: text, bio: text }) },
  {
    method: 'POST',
    url: () => '/api/account/saveAccessibilitySettings',
    body: fc.record({
      username: text,
      accessibilitySettings: fc.record({ lowVision: anything, colorBlindness: text }),
    }),
  },
  {
    method: 'POST',
    url: () => '/api/thread/addThread',
    body: fc.record({ accounts: fc.oneof(fc.array(text), anything) }),
  },
  {
    method: 'POST',
    url: () => '/api/message/addMessage',
    body: fc.record({ tid: fc.oneof(id, fc.constant('porpchat')), msg: fc.record({ content: text, sender: text }) }),
  },
  { method: 'POST', url: () => '/api/message/readMessage', body: fc.record({ mid: id, username: text }) },
  { method: 'POST', url: () => '/api/forum/addForum', body: fc.record({ name: text, description: text }) },
  { method: 'GET', url: (v) => `/api/getQuestion?order=${v}&search=${v}&tag=${v}&limit=${v}&offset=${v}` },
  { method: 'GET', url: (v) => `/api/getQuestion?cursor=${v}` },
  { method: 'GET', url: (v) => `/api/getQuestionById/${v}?username=${v}` },
  { method: 'GET', url: (v) => `/api/tag/getTagByName/${v}` },
  { method: 'GET', url: (v) => `/api/profile/getQuestions?username=${v}` },
  { method: 'GET', url: (v) => `/api/profile/getAnswers?username=${v}` },
  { method: 'GET', url: (v) => `/api/profile/getBio?username=${v}` },
  { method: 'GET', url: (v) => `/api/thread/getThreads?username=${v}` },
  { method: 'GET', url: (v) => `/api/thread/getThreadById/${v}?username=${v}` },
  { method: 'GET', url: (v) => `/api/forum/getForums?username=${v}` },
];

describe.each(DATABASE_KINDS)('fuzzing every API route on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    const qid = await askQuestion(t.app, user);
    await answerQuestion(t.app, user, qid);
  });
  afterAll(async () => t.close());

  it.each(ROUTES.map((route) => [`${route.method} ${route.url(':v')}`, route] as const))('%s', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(route.body ?? anything, anything),
        text,
        fc.boolean(),
        async (body, value, signedIn) => {
          const before = route.method === 'GET' ? null : await snapshot(t.app.db);
          const response = await t.app.inject({
            method: route.method,
            url: route.url(encode(value.slice(0, 2_000))),
            headers: { ...(signedIn ? { cookie: user.cookie } : {}), 'content-type': 'application/json' },
            ...(route.method === 'GET' ? {} : { payload: JSON.stringify(body) ?? 'null' }),
          });
          expect(response.statusCode).toBeLessThan(500);
          expect(response.headers['content-type']).toContain('application/json');
          if (before && response.statusCode !== 200) expect(await snapshot(t.app.db)).toEqual(before);
        },
      ),
      { numRuns: kind === 'pglite' ? 40 : 25 },
    );
    expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('adversarial long texts on every route that takes text, on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let qid: string;
  let directThread: string;
  let forumThread: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    const other = await registerUser(t.app);
    qid = await askQuestion(t.app, user);
    const post = async (url: string, payload: object) => {
      const response = await t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });
      expect(response.statusCode).toBe(200);
      return response.json<{ _id: string; thread: string }>();
    };
    directThread = (await post('/api/thread/addThread', { accounts: [user.username, other.username] }))._id;
    forumThread = (await post('/api/forum/addForum', { name: `Fuzz ${qid}`, description: 'Adversarial texts' })).thread;
  });
  afterAll(async () => t.close());

  /** Each route that takes text, as the request that carries `v` in its text field. */
  const routes: Record<string, (v: string) => { method: 'GET' | 'POST' | 'PUT'; url: string; payload?: object }> = {
    'question text': (v) => ({
      method: 'POST',
      url: '/api/addQuestion',
      payload: { title: 'Adversarial', text: v, tags: [{ name: 'fuzz' }] },
    }),
    'question title': (v) => ({
      method: 'POST',
      url: '/api/addQuestion',
      payload: { title: v, text: 'Details', tags: [{ name: 'fuzz' }] },
    }),
    'question tags': (v) => ({
      method: 'POST',
      url: '/api/addQuestion',
      payload: { title: 'Adversarial', text: 'Details', tags: [{ name: v }] },
    }),
    answer: (v) => ({ method: 'POST', url: '/api/answer/addAnswer', payload: { qid, ans: { text: v } } }),
    comment: (v) => ({
      method: 'POST',
      url: '/api/comment/addComment',
      payload: { id: qid, type: 'question', comment: { text: v } },
    }),
    'direct message': (v) => ({
      method: 'POST',
      url: '/api/message/addMessage',
      payload: { tid: directThread, msg: { content: v } },
    }),
    'forum thread post': (v) => ({
      method: 'POST',
      url: '/api/message/addMessage',
      payload: { tid: forumThread, msg: { content: v } },
    }),
    'PorpChat message': (v) => ({
      method: 'POST',
      url: '/api/message/addMessage',
      payload: { tid: 'porpchat', msg: { content: v, sender: 'Visitor' } },
    }),
    'PorpChat name': (v) => ({
      method: 'POST',
      url: '/api/message/addMessage',
      payload: { tid: 'porpchat', msg: { content: 'hello', sender: v } },
    }),
    'forum name and description': (v) => ({
      method: 'POST',
      url: '/api/forum/addForum',
      payload: { name: v, description: v },
    }),
    bio: (v) => ({ method: 'PUT', url: '/api/profile/updateBio', payload: { username: user.username, bio: v } }),
    'search query': (v) => ({ method: 'GET', url: `/api/getQuestion?search=${encodeURIComponent(v)}` }),
    // The longest search the list takes (500 characters) reaches the search parser.
    'search query (500 characters)': (v) => ({
      method: 'GET',
      url: `/api/getQuestion?search=${encodeURIComponent(v.slice(0, 500))}`,
    }),
  };

  const cases = Object.entries(routes).flatMap(([route, request]) =>
    Object.entries(ADVERSARIAL).map(([input, value]) => [route, input, request, value] as const),
  );

  // The old link pattern spent 0.4-2 s of CPU on the event loop for one such question text;
  // checked in linear time a whole request takes a few tens of milliseconds (storing the
  // text included). 250 ms leaves room for garbage collection.
  it.each(cases)(
    '%s with %s: answered without a 500 or holding the event loop',
    async (_route, _input, build, value) => {
      const request = build(value);
      const cpu = measureCpu();
      const response = await t.app.inject({
        ...request,
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
        ...(request.payload ? { payload: JSON.stringify(request.payload) } : {}),
      });
      expect(cpu()).toBeLessThan(250);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['content-type']).toContain('application/json');
      expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);
    },
  );
});
