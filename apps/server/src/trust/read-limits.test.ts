// Issue 15 item 14: reads are bounded. The home list's offset stops at LIMITS.listOffsetMax
// (each offset was another cached page and a longer index walk, up to 1,000,000 deep);
// deeper pages come by an opaque keyset cursor, checked strictly and never cached; and
// API reads are rate limited per client address, health checks excepted.
import { LIMITS, MESSAGES, ORDERS, type Order, type QuestionSummary } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { insertQuestions, registerUser, uniqueName, type TestUser } from '../test/factories.ts';
import { statementsDuring } from '../test/statements.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** More questions than the deepest offset reaches, in every order (a quarter are answered). */
const COUNT = LIMITS.listOffsetMax + 450;

/** Each order as docs/product.md section 3 defines it, ties broken by the newer id. */
const ORDER_SQL: Record<Order, string> = {
  newest: 'q.ask_date_time desc, q.id desc',
  unanswered: 'q.ask_date_time desc, q.id desc',
  active: 'q.last_activity_at desc, q.id desc',
  mostViewed: 'q.view_count desc, q.ask_date_time desc, q.id desc',
};

describe.each(DATABASE_KINDS)('bounded reads on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  const tag = uniqueName('deep').slice(0, 20);
  const word = uniqueName('w').replace('_', '');
  const rareWord = uniqueName('r').replace('_', '');

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    await insertQuestions(t.app, user, { count: COUNT, tag, word, rareWord });
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie, ...headers } });

  /** The ids the list should show, in order, straight from the database. */
  const expected = async (order: Order, where: string) =>
    (
      await queryRows<{ id: number }>(
        t.app.db,
        sql.raw(`select q.id from questions q where ${where}
          ${order === 'unanswered' ? 'and q.answer_count = 0' : ''} order by ${ORDER_SQL[order]}`),
      )
    ).map((row) => String(row.id));

  /** Every page from the first, following X-Next-Cursor until there is none. */
  async function walk(query: string): Promise<{ ids: string[]; totals: number[]; pages: number }> {
    const ids: string[] = [];
    const totals: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await get(`/api/getQuestion?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      ids.push(...response.json<QuestionSummary[]>().map((q) => q._id));
      totals.push(Number(response.headers['x-total-count']));
      cursor = response.headers['x-next-cursor'] as string | undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    return { ids, totals, pages };
  }

  const byTag = () => `q.id in (select qt.question_id from question_tags qt join tags t on t.id = qt.tag_id
    where t.name = '${tag}')`;

  it('refuses an offset past the cap with 400, and takes one at it', async () => {
    const deepest = await get(`/api/getQuestion?tag=${tag}&limit=10&offset=${LIMITS.listOffsetMax}`);
    expect(deepest.statusCode).toBe(200);
    expect(deepest.json<QuestionSummary[]>()).toHaveLength(10);
    for (const offset of [LIMITS.listOffsetMax + 1, 5_000, 1_000_000]) {
      const response = await get(`/api/getQuestion?tag=${tag}&offset=${offset}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: MESSAGES.offsetTooDeep, code: expect.any(String) as string });
    }
  });

  it.each(ORDERS)('reaches every question past the cap in %s order by following the cursor', async (order) => {
    const want = await expected(order, byTag());
    expect(want.length).toBeGreaterThan(LIMITS.listOffsetMax);
    const { ids, totals, pages } = await walk(`tag=${tag}&order=${order}&limit=${LIMITS.pageSizeMax}`);
    expect(ids).toEqual(want);
    expect(new Set(totals)).toEqual(new Set([want.length]));
    // Full pages carry a cursor; the first page that is not full (maybe empty) ends the walk.
    expect(pages).toBe(Math.floor(want.length / LIMITS.pageSizeMax) + 1);
  });

  it.each([
    ['a word in every question (past the search count cap)', () => word],
    ['a word in one question in ten (counted from the index)', () => rareWord],
  ])('follows the cursor through a search for %s', async (_label, term) => {
    const want = await expected('newest', `q.search @@ plainto_tsquery('simple', '${term()}')`);
    const { ids, totals } = await walk(`search=${term()}&order=newest&limit=${LIMITS.pageSizeMax}`);
    expect(ids).toEqual(want);
    expect(new Set(totals)).toEqual(new Set([Math.min(want.length, LIMITS.searchCountCap)]));
  });

  it('never answers a cursor page from the cache', async () => {
    const first = await get(`/api/getQuestion?tag=${tag}&limit=5`);
    const url = `/api/getQuestion?tag=${tag}&limit=5&cursor=${first.headers['x-next-cursor'] as string}`;
    await get(url);
    const cached = await statementsDuring(t.app.db, async () => {
      await get(`/api/getQuestion?tag=${tag}&limit=5`);
    });
    expect(cached).toEqual([]); // the first page is cached
    let again: LightMyRequestResponse | undefined;
    const read = await statementsDuring(t.app.db, async () => {
      again = await get(url);
    });
    expect(again?.statusCode).toBe(200);
    expect(read.length).toBeGreaterThan(0);
  });

  it('refuses anything but a cursor it made for that order with 400, never 500', async () => {
    const first = await get(`/api/getQuestion?tag=${tag}&order=newest&limit=5`);
    const cursor = first.headers['x-next-cursor'] as string;
    const keys = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      'x',
      `${cursor}=`,
      `${cursor}%00`,
      cursor.slice(1),
      'a'.repeat(200),
      forge({ at: keys[1], id: keys[3] }),
      forge([...keys, 1]),
      forge(['newest', '2026-02-30T00:00:00.000000Z', null, 1]),
      forge(['newest', '0000-01-01T00:00:00.000000Z', null, 1]),
      forge(['newest', 'yesterday', null, 1]),
      forge(['newest', keys[1], null, -1]),
      forge(['newest', keys[1], null, 1.5]),
      forge(['newest', keys[1], null, 2 ** 60]),
      forge(['newest', keys[1], 3, 1]),
      forge(['mostViewed', keys[1], null, 1]),
      forge(['sideways', keys[1], null, 1]),
      "'; drop table questions; --",
    ];
    for (const value of bad) {
      const response = await get(`/api/getQuestion?tag=${tag}&order=newest&cursor=${encodeURIComponent(value)}`);
      expect(response.statusCode, value).toBe(400);
    }
    // A cursor is for the order it was made in.
    const other = await get(`/api/getQuestion?tag=${tag}&order=active&cursor=${cursor}`);
    expect(other.json()).toEqual({ error: MESSAGES.invalidCursor, code: expect.any(String) as string });
    const both = await get(`/api/getQuestion?tag=${tag}&order=newest&offset=5&cursor=${cursor}`);
    expect(both.json()).toEqual({ error: MESSAGES.offsetAndCursor, code: expect.any(String) as string });
  });
});

describe.each(DATABASE_KINDS)('the read rate limit on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    // The real read limit (1,200 a minute per address).
    t = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
    user = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const read = (url: string, remoteAddress = '203.0.113.7') =>
    t.app.inject({ method: 'GET', url, remoteAddress, headers: { cookie: user.cookie } });

  it('answers 1,200 reads a minute from one address, then 429 with Retry-After; health checks and other addresses go on', async () => {
    const limit = t.app.config.rateLimits.readsPerClient.max;
    expect(limit).toBe(1_200);
    const statuses = new Map<number, number>();
    for (let i = 0; i < limit; i++) {
      const { statusCode } = await read(i % 2 === 0 ? '/api/getQuestion' : '/api/account/me');
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, limit]]));

    const refused = await read('/api/getQuestion?order=active');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: MESSAGES.tooManyRequests, code: expect.any(String) as string });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Refused before the session is looked up: a signed-out read gets 429 too, not 401.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/getQuestion', remoteAddress: '203.0.113.7' });
    expect(anonymous.statusCode).toBe(429);

    expect((await read('/api/healthz')).statusCode).toBe(200);
    expect((await read('/api/readyz')).statusCode).toBe(200);
    expect((await read('/api/getQuestion', '203.0.113.8')).statusCode).toBe(200);
    // Writes are held by their own limits, not by this one.
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/comment/addComment',
      remoteAddress: '203.0.113.7',
      headers: { cookie: user.cookie },
      payload: { id: '999999', type: 'question', comment: { text: 'hello' } },
    });
    expect(posted.statusCode).toBe(404);
  });

  it('counts an IPv6 client by its /64', async () => {
    const limit = t.app.config.rateLimits.readsPerClient.max;
    for (let i = 0; i < limit; i++) {
      expect((await read('/api/getQuestion', `2001:db8:1:2::${(i % 65_535).toString(16)}`)).statusCode).toBe(200);
    }
    expect((await read('/api/getQuestion', '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await read('/api/getQuestion', '2001:db8:1:3::1')).statusCode).toBe(200);
  });
});
