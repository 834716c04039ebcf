import { LIMITS, type QuestionSummary } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { questionSearchVector, tagLexeme } from '../../db/search-vector.ts';
import { WHOLE_LIST } from '../../db/schema.ts';
import { accountIdOf, askQuestion, registerUser, type TestUser } from '../../test/factories.ts';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

// A search for a word PostgreSQL's statistics know to be in thousands of questions reports
// the count's cap without counting; everything else is counted. Both must give the same
// answers as counting would.
describe.each(DATABASE_KINDS)('search over thousands of questions on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let newestCommon: string;
  let herdLexeme: string;
  const COMMON = 2 * LIMITS.searchCountCap + 500;

  beforeAll(async () => {
    t = await startTestApp(kind);
    user = await registerUser(t.app);
    const accountId = await accountIdOf(t.app, user.username);
    // The bulk questions all carry the tag 'herd', written as addQuestion would.
    const [herd] = await queryRows<{ id: number }>(
      t.app.db,
      sql`insert into tags (name, description) values ('herd', '') returning id`,
    );
    const herdId = Number(herd!.id);
    herdLexeme = tagLexeme(herdId);
    await t.app.db.execute(sql`with bulk as (
        insert into questions (title, text, asked_by, ask_date_time, last_activity_at, search)
        select title, body, ${accountId}, now() - make_interval(mins => n), now() - make_interval(mins => n),
          ${questionSearchVector(sql`title`, sql`body`, sql`array[${herdLexeme}::text]`)}
        from generate_series(1, ${COMMON}) n, lateral (select 'Bulk question ' || n as title, 'a walrus appears in ' || n as body) t
        returning id, ask_date_time, last_activity_at), linked as (
      insert into question_tags (question_id, tag_id, ask_date_time, last_activity_at)
        select id, ${herdId}, ask_date_time, last_activity_at from bulk)
      -- Their mostViewed rows (schema: view_ranks): the whole list's and the tag's.
      insert into view_ranks (question_id, tag_id, ask_date_time)
        select id, tag_id, ask_date_time from bulk, (values (${WHOLE_LIST}::bigint), (${herdId}::bigint)) ranks(tag_id)`);
    await t.app.db.execute(sql`with rare as (
        insert into questions (title, text, asked_by, search)
        select 'Rare ' || n, 'narwhal99 once', ${accountId},
          ${questionSearchVector(sql`'Rare ' || n`, sql`'narwhal99 once'`, sql`array[]::text[]`)}
        from generate_series(1, 3) n
        returning id, ask_date_time)
      insert into view_ranks (question_id, tag_id, ask_date_time) select id, ${WHOLE_LIST}, ask_date_time from rare`);
    newestCommon = await askQuestion(t.app, user, { title: 'Fresh walrus sighting', text: 'today', tags: ['herd'] });
    await t.app.db.execute(sql`analyze questions`);
  }, 60_000);
  afterAll(async () => t.close());

  const search = async (text: string, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/getQuestion?search=${encodeURIComponent(text)}${query}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    return { questions: response.json<QuestionSummary[]>(), total: Number(response.headers['x-total-count']) };
  };

  it('answers a common word with the cap and the newest matches first', async () => {
    const { questions, total } = await search('walrus');
    expect(total).toBe(LIMITS.searchCountCap);
    expect(questions).toHaveLength(LIMITS.pageSizeDefault);
    expect(questions[0]?._id).toBe(newestCommon);
    expect(questions.slice(1).map((q) => q.title)).toEqual(
      Array.from({ length: LIMITS.pageSizeDefault - 1 }, (_, i) => `Bulk question ${i + 1}`),
    );
  });

  it('walks a common word in mostViewed order through the rank rows, and on by the cursor', async () => {
    // Two bulk questions viewed (written as the view batch writes them: the count and its rank rows).
    const views = { 'Bulk question 700': 5, 'Bulk question 800': 3 };
    for (const [title, count] of Object.entries(views)) {
      await t.app.db.execute(sql`with viewed as (
          update questions set view_count = ${count} where title = ${title} returning id, view_count)
        update view_ranks r set view_count = viewed.view_count from viewed where r.question_id = viewed.id`);
    }
    try {
      const first = await t.app.inject({
        method: 'GET',
        url: '/api/getQuestion?search=walrus&order=mostViewed',
        headers: { cookie: user.cookie },
      });
      expect(Number(first.headers['x-total-count'])).toBe(LIMITS.searchCountCap);
      const titles = first.json<QuestionSummary[]>().map((q) => q.title);
      // The viewed ones, then the rest by age: the newest first.
      expect(titles.slice(0, 4)).toEqual([
        'Bulk question 700',
        'Bulk question 800',
        'Fresh walrus sighting',
        'Bulk question 1',
      ]);
      const cursor = first.headers['x-next-cursor'];
      expect(typeof cursor).toBe('string');
      const next = await t.app.inject({
        method: 'GET',
        url: `/api/getQuestion?search=walrus&order=mostViewed&cursor=${String(cursor)}`,
        headers: { cookie: user.cookie },
      });
      const last = Number(titles.at(-1)!.replace('Bulk question ', ''));
      expect(
        next
          .json<QuestionSummary[]>()
          .map((q) => q.title)
          .slice(0, 2),
      ).toEqual([`Bulk question ${last + 1}`, `Bulk question ${last + 2}`]);
    } finally {
      await t.app.db.execute(sql`with reset as (
          update questions set view_count = 0 where title like 'Bulk question %' and view_count <> 0 returning id)
        update view_ranks r set view_count = 0 from reset where r.question_id = reset.id`);
    }
  });

  it('answers a common tag, alone or with a rare word, with the cap and the newest matches first', async () => {
    for (const text of ['[herd]', '[herd] narwhal99']) {
      const { questions, total } = await search(text);
      expect(total).toBe(LIMITS.searchCountCap);
      expect(questions[0]?._id).toBe(newestCommon);
      expect(questions).toHaveLength(LIMITS.pageSizeDefault);
    }
    // The rare ones were asked after the bulk and before the fresh question.
    const { questions } = await search('[herd] narwhal99');
    expect(questions.slice(1, 5).map((q) => q.title)).toEqual(['Rare 3', 'Rare 2', 'Rare 1', 'Bulk question 1']);
  });

  it('takes a common word or tag from the statistics, without counting', async () => {
    // Nine bulk questions in ten lose their words and tag after ANALYZE: the statistics
    // still call 'walrus' and [herd] common, so the total stays the cap, where counting
    // would find about 250. (Questions are never deleted; this only shows which path ran.)
    await t.app.db.execute(sql`update questions set search = to_tsvector('simple', 'emptied')
      where title like 'Bulk question %' and id % 10 <> 0`);
    try {
      for (const text of ['walrus', '[herd]']) expect((await search(text)).total).toBe(LIMITS.searchCountCap);
      // Within a filtered list the statistics say nothing: it counts.
      const unanswered = await search('walrus', '&order=unanswered');
      expect(unanswered.total).toBeGreaterThan(200);
      expect(unanswered.total).toBeLessThan(300);
    } finally {
      await t.app.db
        .execute(sql`update questions set search = ${questionSearchVector(sql`title`, sql`text`, sql`array[${herdLexeme}::text]`)}
        where title like 'Bulk question %'`);
    }
  });

  it('counts a rare word exactly among thousands of others', async () => {
    const { questions, total } = await search('NARWHAL99');
    expect(total).toBe(3);
    expect(questions.map((q) => q.title).sort()).toEqual(['Rare 1', 'Rare 2', 'Rare 3']);
  });

  it("keeps the full-text index's pending list short (every search reads through it)", async () => {
    const [row] = await queryRows<{ options: string[] }>(
      t.app.db,
      sql`select reloptions as options from pg_class where relname = 'questions_search_idx'`,
    );
    expect(row?.options).toContain('gin_pending_list_limit=128');
  });

  it('does not take a word for common because one of its parts is', async () => {
    // 'walrus-xyzzy' must contain both parts: no question does.
    expect(await search('walrus-xyzzy')).toEqual({ questions: [], total: 0 });
  });

  it('counts a common word within a filtered list (unanswered) instead of assuming', async () => {
    await t.app.db.execute(sql`update questions set answer_count = 1 where title like 'Bulk question %'`);
    try {
      const { questions, total } = await search('walrus', '&order=unanswered');
      expect(total).toBe(1);
      expect(questions.map((q) => q._id)).toEqual([newestCommon]);
    } finally {
      await t.app.db.execute(sql`update questions set answer_count = 0 where title like 'Bulk question %'`);
    }
  });
});
