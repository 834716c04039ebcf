// Issue 16: writes return events and one processor acts on them. A write drops exactly the
// cached reads it changed (not every list and page, which under a community's mix of
// traffic left the caches almost always empty), and a question's views go out at most
// once a second, bounded, to the sockets that show it.
import { SOCKET_EVENTS, type Question, type QuestionSummary } from '@porpoise/core';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { touchedBy } from './invalidation.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import {
  accountIdOf,
  answerQuestion,
  askQuestion,
  registerUser,
  uniqueName,
  type TestUser,
} from '../test/factories.ts';
import { connected, nextEvent, openSocket, recordAll, showQuestions } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe('what each event touches', () => {
  it('a comment only its question page; a vote its page and row; an answer also active (and unanswered, the first)', () => {
    expect(
      touchedBy([{ type: 'commentAdded', questionId: 1, commentId: 2, target: 'question', parentId: 1, mentions: [] }]),
    ).toEqual({ questions: [1], rows: [], orders: [], tags: false });
    expect(touchedBy([{ type: 'voteChanged', questionId: 1, voterId: 2 }])).toEqual({
      questions: [1],
      rows: [1],
      orders: [],
      tags: false,
    });
    expect(
      touchedBy([
        { type: 'answerAdded', questionId: 1, answerId: 2, tags: ['x'], firstAnswer: false, mentions: [], images: [] },
      ]),
    ).toEqual({
      questions: [1],
      rows: [1],
      orders: [{ order: 'active', tags: ['x'] }],
      tags: false,
    });
    expect(
      touchedBy([
        { type: 'answerAdded', questionId: 1, answerId: 2, tags: ['x'], firstAnswer: true, mentions: [], images: [] },
      ]).orders,
    ).toEqual([
      { order: 'active', tags: ['x'] },
      { order: 'unanswered', tags: ['x'] },
    ]);
    expect(
      touchedBy([{ type: 'questionAsked', questionId: 3, tags: ['y'], mentions: [], images: [] }]).orders.map(
        (o) => o.order,
      ),
    ).toEqual(['newest', 'unanswered', 'active', 'mostViewed']);
    expect(touchedBy([{ type: 'questionAsked', questionId: 3, tags: ['y'], mentions: [], images: [] }]).tags).toBe(
      true,
    );
    expect(touchedBy([{ type: 'questionViewed', questionId: 1 }])).toEqual({
      questions: [],
      rows: [],
      orders: [],
      tags: false,
    });
  });
});

describe.each(DATABASE_KINDS)('the write path on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, { configure: (config) => void (config.viewCountMs = 3_600_000) });
    [alice, bob] = [await registerUser(t.app), await registerUser(t.app)];
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => t.close());

  const get = async <T>(url: string, user = alice) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
    expect(response.statusCode).toBe(200);
    return response.json<T>();
  };
  const list = (query: string) => get<QuestionSummary[]>(`/api/getQuestion?${query}`);
  const page = (qid: string, user = alice) => get<Question>(`/api/getQuestionById/${qid}`, user);
  const loads = () => ({ lists: t.app.contentCache.lists.loads, questions: t.app.contentCache.questions.loads });
  const tag = () => uniqueName('t').slice(0, 20).toLowerCase();

  it('drops only the pages a write changed', async () => {
    const [red, blue] = [tag(), tag()];
    const one = await askQuestion(t.app, alice, { tags: [red] });
    const two = await askQuestion(t.app, alice, { tags: [blue] });
    await answerQuestion(t.app, alice, two); // two is answered already: a new answer to it is not its first
    const warm = async () => {
      await Promise.all([page(one), page(two), list('order=newest'), list(`tag=${blue}`), list(`tag=${red}`)]);
      await list('order=unanswered');
    };
    await warm();
    let before = loads();

    // A comment: its question's page only.
    await t.app.inject({
      method: 'POST',
      url: '/api/comment/addComment',
      headers: { cookie: bob.cookie },
      payload: { id: one, type: 'question', comment: { text: 'Only the page' } },
    });
    expect((await page(one)).comments.map((c) => c.text)).toEqual(['Only the page']);
    await warm();
    expect(loads()).toEqual({ lists: before.lists, questions: before.questions + 1 });

    // An answer to two (not its first): two's page, the lists showing two; not red's list,
    // not one's page, not the unanswered list.
    before = loads();
    await answerQuestion(t.app, bob, two, 'Second answer');
    expect((await page(two)).answers).toHaveLength(2);
    expect((await list(`tag=${blue}`))[0]?.answerCount).toBe(2);
    await warm();
    expect(loads()).toEqual({ lists: before.lists + 2, questions: before.questions + 1 }); // newest and blue

    // A vote on one: its page and the lists showing it (newest, red, unanswered).
    before = loads();
    await t.app.inject({
      method: 'POST',
      url: '/api/upvoteQuestion',
      headers: { cookie: bob.cookie },
      payload: { qid: one },
    });
    expect((await list(`tag=${red}`))[0]?.voteCount).toBe(1);
    await warm();
    expect(loads()).toEqual({ lists: before.lists + 3, questions: before.questions + 1 });

    // A new question tagged blue: every whole list and blue's; red's list stays.
    before = loads();
    const three = await askQuestion(t.app, alice, { tags: [blue] });
    expect((await list(`tag=${blue}`))[0]?._id).toBe(three);
    await warm();
    expect(loads()).toEqual({ lists: before.lists + 3, questions: before.questions });
  });

  it('keeps the tags page until a new question changes its counts', async () => {
    const qid = await askQuestion(t.app, alice, { tags: [tag()] });
    const tags = () => get<Array<{ name: string; qcnt: number }>>('/api/tag/getTagsWithQuestionNumber');
    await tags();
    const before = t.app.contentCache.tags.loads;
    await answerQuestion(t.app, bob, qid);
    await t.app.inject({
      method: 'POST',
      url: '/api/upvoteQuestion',
      headers: { cookie: bob.cookie },
      payload: { qid },
    });
    await tags();
    expect(t.app.contentCache.tags.loads).toBe(before);
    const fresh = tag();
    await askQuestion(t.app, alice, { tags: [fresh] });
    expect((await tags()).find((row) => row.name === fresh)?.qcnt).toBe(1);
    expect(t.app.contentCache.tags.loads).toBe(before + 1);
  });

  it('sends one viewsUpdate for many first views, with the recent viewers and the exact count', async () => {
    const qid = await askQuestion(t.app, alice);
    const viewers = await Promise.all(Array.from({ length: 4 }, () => registerUser(t.app)));
    const watcher = openSocket(t.url, { cookie: alice.cookie });
    sockets.push(watcher);
    await connected(watcher);
    await showQuestions(watcher, [qid]);
    const heard = recordAll(watcher);
    for (const viewer of viewers) await page(qid, viewer);
    await page(qid, viewers[0]); // a repeat
    const update = nextEvent<{ qid: string; views: string[]; viewCount: number }>(watcher, SOCKET_EVENTS.viewsUpdate);
    await t.app.events.flushViews();
    expect(await update).toEqual({ qid, views: viewers.map((viewer) => viewer.username), viewCount: 4 });
    await t.app.events.flushViews(); // nothing new: nothing sent
    await showQuestions(watcher, [qid]); // a round trip after the flush
    expect(heard.filter((event) => event.event === SOCKET_EVENTS.viewsUpdate)).toHaveLength(1);
  });

  it('keeps a mostViewed page that new view counts cannot reorder, and drops one they do', async () => {
    const name = tag();
    const [first, second, third] = [
      await askQuestion(t.app, alice, { tags: [name] }),
      await askQuestion(t.app, alice, { tags: [name] }),
      await askQuestion(t.app, alice, { tags: [name] }),
    ];
    const viewers = await Promise.all(Array.from({ length: 6 }, () => registerUser(t.app)));
    for (const viewer of viewers.slice(0, 3)) await page(first, viewer);
    for (const viewer of viewers.slice(0, 2)) await page(second, viewer);
    await t.app.events.flushViews();
    const top = async () => (await list(`tag=${name}&order=mostViewed&limit=2`)).map((row) => [row._id, row.viewCount]);
    expect(await top()).toEqual([
      [first, 3],
      [second, 2],
    ]);
    const before = loads().lists;
    await page(third, viewers[3]); // 1 view: still below the page's lowest (2)
    await t.app.events.flushViews();
    expect(await top()).toEqual([
      [first, 3],
      [second, 2],
    ]);
    expect(loads().lists).toBe(before);
    for (const viewer of viewers.slice(4)) await page(third, viewer); // 3 views: it climbs in
    await t.app.events.flushViews();
    expect(await top()).toEqual([
      [third, 3],
      [first, 3],
    ]);
    expect(loads().lists).toBe(before + 1);
  });

  it("orders a tag's mostViewed page by the counts its rank rows keep, a tag added by an edit included", async () => {
    const [old, added] = [tag(), tag()];
    const [viewed, other] = [
      await askQuestion(t.app, alice, { tags: [old] }),
      await askQuestion(t.app, alice, { tags: [old] }),
    ];
    const viewers = await Promise.all(Array.from({ length: 3 }, () => registerUser(t.app)));
    for (const viewer of viewers) await page(viewed, viewer);
    await page(other, viewers[0]);
    await t.app.events.flushViews();
    const ids = async (name: string) => (await list(`tag=${name}&order=mostViewed`)).map((row) => row._id);
    expect(await ids(old)).toEqual([viewed, other]);
    // The edit links a new tag: the link starts from the question's count, not 0.
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/question/${other}`,
      payload: {
        title: 'An edited question title',
        text: 'Edited text',
        tags: [old, added].map((name) => ({ name, description: '' })),
      },
      headers: { cookie: alice.cookie },
    });
    expect(edit.statusCode).toBe(200);
    const fewest = async () =>
      (
        await queryRows<{ views: number }>(
          t.app.db,
          sql`select min(r.view_count)::int as views from view_ranks r where r.question_id = ${Number(other)}`,
        )
      )[0]?.views;
    expect(await fewest()).toBe(1);
    await page(other, viewers[1]);
    await page(other, viewers[2]);
    await page(other, bob);
    await t.app.events.flushViews();
    expect(await ids(old)).toEqual([other, viewed]);
    expect(await ids(added)).toEqual([other]);
    const [drift] = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from view_ranks r join questions q on q.id = r.question_id
        where q.id in (${Number(viewed)}, ${Number(other)}) and r.view_count <> q.view_count`,
    );
    expect(drift?.n).toBe(0);
    expect(await fewest()).toBe(4);
    // An edit taking a tag off takes the question off that tag's page, and its rank row with it.
    const untag = await t.app.inject({
      method: 'PUT',
      url: `/api/question/${other}`,
      payload: { title: 'An edited question title', text: 'Edited text', tags: [{ name: added, description: '' }] },
      headers: { cookie: alice.cookie },
    });
    expect(untag.statusCode).toBe(200);
    expect(await ids(old)).toEqual([viewed]);
    expect(await ids(added)).toEqual([other]);
    const ranks = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from view_ranks where question_id = ${Number(other)}`,
    );
    expect(ranks[0]?.n).toBe(2); // the whole list's and the added tag's
  });

  it("leaves a first view's update of its question free to be HOT: no index holds view_count, and pages keep room", async () => {
    // The view batch's update then adds no index entries (schema: view_ranks; migration 0029).
    const indexed = await queryRows<{ name: string }>(
      t.app.db,
      sql`select i.indexrelid::regclass::text as name from pg_index i
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = 'questions'::regclass and a.attname = 'view_count'
        union all
        select indexname from pg_indexes where tablename = 'questions' and indexdef ilike '%view_count%'`,
    );
    expect(indexed).toEqual([]);
    const [table] = await queryRows<{ options: string[] | null }>(
      t.app.db,
      sql`select reloptions as options from pg_class where oid = 'questions'::regclass`,
    );
    expect(table?.options).toContain('fillfactor=90');
  });

  it("sends a list's view counts in one frame: one viewsUpdate payload per question it shows", async () => {
    const shown = [await askQuestion(t.app, alice), await askQuestion(t.app, alice), await askQuestion(t.app, alice)];
    const other = await askQuestion(t.app, alice);
    const viewer = await registerUser(t.app);
    const watcher = openSocket(t.url, { cookie: alice.cookie });
    sockets.push(watcher);
    await connected(watcher);
    await showQuestions(watcher, shown);
    const frames: unknown[][] = [];
    watcher.on(SOCKET_EVENTS.viewsUpdate, (...payloads: unknown[]) => frames.push(payloads));
    for (const qid of [...shown, other]) await page(qid, viewer);
    await t.app.events.flushViews();
    await showQuestions(watcher, shown); // a round trip after the flush
    expect(frames).toHaveLength(1);
    const payloads = frames[0] as Array<{ qid: string; views: string[]; viewCount: number }>;
    expect(payloads.map((payload) => payload.qid).sort()).toEqual([...shown].sort());
    for (const payload of payloads)
      expect(payload).toEqual({ qid: payload.qid, views: [viewer.username], viewCount: 1 });
  });

  it('names at most the 100 most recent viewers, the reader among them, and counts them all', async () => {
    const qid = await askQuestion(t.app, alice);
    const prefix = uniqueName('v').slice(0, 12);
    // 105 earlier viewers, one a second apart, written straight to the database.
    await queryRows(
      t.app.db,
      sql`with made as (
          insert into accounts (username, email, password_hash)
          select ${prefix} || n, ${prefix} || n || '@example.com', 'x' from generate_series(1, 105) n
          returning id, username)
        , viewed as (
          insert into views (question_id, account_id, viewed_at)
          select ${Number(qid)}, id, now() - interval '1 hour' + (substr(username, ${prefix.length + 1})::int * interval '1 second')
          from made returning 1)
        update questions set view_count = view_count + (select count(*) from viewed) where id = ${Number(qid)}`,
    );
    const shown = await page(qid, bob);
    expect(shown.viewCount).toBe(106);
    expect(shown.views).toHaveLength(100);
    expect(shown.views.at(-1)).toBe(bob.username);
    expect(shown.views[0]).toBe(`${prefix}7`); // 1-6 are the oldest of 105, past the 99 newer ones
    // An early viewer, no longer named on the page, still finds their name on their own.
    const early = await registerUser(t.app);
    await page(qid, early);
    await queryRows(
      t.app.db,
      sql`update views set viewed_at = now() - interval '2 hours' where account_id = (select id from accounts where username = ${early.username})`,
    );
    await t.app.events.flushViews();
    const again = await page(qid, early);
    expect(again.views).toHaveLength(100);
    expect(again.views.at(-1)).toBe(early.username);
    expect(again.viewCount).toBe(107);
  });
});

// A write may lock several accounts (a vote's author and voter, an accept's two, a delete's
// many): two writes meeting in opposite orders deadlock on PostgreSQL, which rolls one back.
describe('two writes that lock two accounts in opposite orders on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres');
  });
  afterAll(async () => t.close());

  it('both land: the one PostgreSQL rolled back runs again, leaving its ledger row once', async () => {
    const [x, y] = [await registerUser(t.app), await registerUser(t.app)];
    const [xId, yId] = [await accountIdOf(t.app, x.username), await accountIdOf(t.app, y.username)];
    const lock = (tx: Db, id: number) => queryRows(tx, sql`select id from accounts where id = ${id} for no key update`);
    // Each write's first attempt holds its first account until the other holds its own.
    let held = 0;
    let bothHeld = () => {};
    const both = new Promise<void>((resolve) => (bothHeld = resolve));
    const attempts = { [xId]: 0, [yId]: 0 };
    const write = (first: number, second: number) =>
      t.app.events.write(async (tx) => {
        attempts[first]! += 1;
        await lock(tx, first);
        if (attempts[first] === 1) {
          if (++held === 2) bothHeld();
          await both;
        }
        await lock(tx, second);
        return {
          result: attempts[first],
          events: [{ type: 'reputationAdjusted', accountId: first, adminId: second, delta: 5, note: 'crossed' }],
        };
      });
    const results = await Promise.all([write(xId, yId), write(yId, xId)]);
    // At least one ran twice (its first attempt was the deadlock's victim). Usually the other
    // ran once; but each waiting backend looks for the deadlock on its own, and on a busy
    // machine the second may look before the first victim's locks are gone and roll itself
    // back too: then both ran twice. Either way each landed once (the ledger below).
    expect([...results].sort().at(-1)).toBe(2);
    expect(attempts[xId]! + attempts[yId]!).toBeGreaterThanOrEqual(3);
    expect(attempts[xId]! + attempts[yId]!).toBeLessThanOrEqual(4);
    const rows = await queryRows<{ accountId: number; n: number }>(
      t.app.db,
      sql`select account_id as "accountId", count(*)::int as n from reputation_events
        where account_id in (${xId}, ${yId}) group by account_id order by account_id`,
    );
    expect(rows.map((row) => [Number(row.accountId), row.n])).toEqual(
      [
        [xId, 1],
        [yId, 1],
      ].sort((a, b) => a[0]! - b[0]!),
    );
    for (const user of [x, y]) {
      const me = await t.app.inject({ method: 'GET', url: '/api/account/me', headers: { cookie: user.cookie } });
      expect(me.json<{ reputation: number }>().reputation).toBe(6);
    }
  });
});
