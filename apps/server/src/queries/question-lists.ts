import { LIMITS } from '@porpoise/core';
import { type QuestionListQuery } from '@porpoise/core/schemas';
import { sql, type SQL } from 'drizzle-orm';
import { tagsOf } from '../cache/question-tags.ts';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';
import { WHOLE_LIST } from '../db/schema.ts';
import { encodeCursor, type ListPosition } from '../http/list-cursor.ts';
import type { SummaryRow, TaggedSummaryRow } from '../presenters/question.ts';
import { accountIdByName } from './accounts.ts';
import { SUMMARY_COLUMNS } from './question-sql.ts';
import { anyTermIsCommon, matchesAny, searchTerms, type SearchTerms } from './question-search.ts';

/** A list row's sort keys to the microsecond (a JS Date keeps milliseconds), for its cursor. */
const KEY_COLUMNS = sql`to_char(q.ask_date_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "askKey",
  to_char(q.last_activity_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "activityKey"`;

type ListRow = SummaryRow & { askKey: string; activityKey: string };

// 'nulls last' matches the indexes as Drizzle creates them, so each order is an index scan.
const ORDER_BY: Record<QuestionListQuery['order'], SQL> = {
  newest: sql`q.ask_date_time desc nulls last, q.id desc nulls last`,
  unanswered: sql`q.ask_date_time desc nulls last, q.id desc nulls last`,
  active: sql`q.last_activity_at desc nulls last, q.id desc nulls last`,
  mostViewed: sql`q.view_count desc nulls last, q.ask_date_time desc nulls last, q.id desc nulls last`,
};

/**
 * The rows after a position, in each order: a row comparison on the order's own index
 * columns (all NOT NULL), so the page starts with an index scan from that row.
 */
const AFTER: Record<QuestionListQuery['order'], (position: ListPosition) => SQL> = {
  newest: ({ at, id }) => sql`(q.ask_date_time, q.id) < (${at}::timestamptz, ${id}::bigint)`,
  unanswered: ({ at, id }) => sql`(q.ask_date_time, q.id) < (${at}::timestamptz, ${id}::bigint)`,
  active: ({ at, id }) => sql`(q.last_activity_at, q.id) < (${at}::timestamptz, ${id}::bigint)`,
  mostViewed: ({ at, views, id }) =>
    sql`(q.view_count, q.ask_date_time, q.id) < (${views}::int, ${at}::timestamptz, ${id}::bigint)`,
};

/**
 * A tag's page reads the tag's own rows, which keep the question's sort keys: a range of one
 * index, as the whole list's pages are, instead of every question carrying the tag read and
 * sorted. mostViewed's rows are view_ranks' (which also hold the whole list's, tag
 * WHOLE_LIST), the other orders' question_tags' (schema). Each order's table, its keys there,
 * most significant first (question_id breaks ties), and a cursor position's values of them.
 */
const TAG_ORDER: Record<
  QuestionListQuery['order'],
  { table: 'question_tags' | 'view_ranks'; keys: readonly string[]; values: (position: ListPosition) => SQL[] }
> = {
  newest: { table: 'question_tags', keys: ['ask_date_time'], values: ({ at }) => [sql`${at}::timestamptz`] },
  unanswered: { table: 'question_tags', keys: ['ask_date_time'], values: ({ at }) => [sql`${at}::timestamptz`] },
  active: { table: 'question_tags', keys: ['last_activity_at'], values: ({ at }) => [sql`${at}::timestamptz`] },
  mostViewed: {
    table: 'view_ranks',
    keys: ['view_count', 'ask_date_time'],
    values: ({ views, at }) => [sql`${views}::int`, sql`${at}::timestamptz`],
  },
};

/** The order's table of a tag's rows, as `alias` (a fixed name). */
const tagRows = (order: QuestionListQuery['order'], alias: string) => sql.raw(`${TAG_ORDER[order].table} ${alias}`);

/** The order's key columns of `alias` (a fixed name), question_id last. */
const tagKeys = (order: QuestionListQuery['order'], alias: string) =>
  [...TAG_ORDER[order].keys, 'question_id'].map((key) => sql.raw(`${alias}.${key}`));

/** ORDER BY the order's keys of `alias`, as the tag-page indexes hold them. */
const tagOrderBy = (order: QuestionListQuery['order'], alias: string) =>
  sql.join(
    tagKeys(order, alias).map((key) => sql`${key} desc nulls last`),
    sql`, `,
  );

/** The rows of `alias` after a position in the order: a row comparison on the index's columns. */
const tagAfter = (order: QuestionListQuery['order'], alias: string, position: ListPosition) =>
  sql`(${sql.join(tagKeys(order, alias), sql`, `)}) < (${sql.join(
    [...TAG_ORDER[order].values(position), sql`${position.id}::bigint`],
    sql`, `,
  )})`;

/**
 * The ids of one page of a tag's list, from the tag's own rows (TAG_ORDER); `tagId` is the
 * tag's, or WHOLE_LIST for the whole list in mostViewed.
 */
function tagPageIds(query: QuestionListQuery, tagId: SQL, after: ListPosition | null): SQL {
  const conditions = [sql`qt.tag_id = ${tagId}`, sql`not qt.deleted`];
  if (query.order === 'unanswered') conditions.push(sql`qt.answer_count = 0`);
  if (after) conditions.push(tagAfter(query.order, 'qt', after));
  return sql`select qt.question_id as id from ${tagRows(query.order, 'qt')} where ${sql.join(conditions, sql` and `)}
    order by ${tagOrderBy(query.order, 'qt')} limit ${query.limit} offset ${query.offset}`;
}

/** A tag's id, by its name. */
const tagNamed = (name: string) => sql`(select id from tags where name = ${name})`;

/**
 * The ids of one page of the questions in any of these tags ('My tags', docs/product.md
 * section 11): each tag's own first rows (a range of its index), merged, a question in two of
 * the tags once.
 */
function tagSetPageIds(query: QuestionListQuery, tags: readonly string[], after: ListPosition | null): SQL {
  const conditions = [sql`qt.tag_id = f.id`, sql`not qt.deleted`];
  if (query.order === 'unanswered') conditions.push(sql`qt.answer_count = 0`);
  if (after) conditions.push(tagAfter(query.order, 'qt', after));
  const keys = sql.join(tagKeys(query.order, 'x'), sql`, `);
  return sql`select x.question_id as id from (select id from tags where name = any(${sql.param(tags)}::text[])) f
    cross join lateral (
      select ${sql.join(tagKeys(query.order, 'qt'), sql`, `)} from ${tagRows(query.order, 'qt')}
      where ${sql.join(conditions, sql` and `)}
      order by ${tagOrderBy(query.order, 'qt')} limit ${query.limit + query.offset}
    ) x
    group by ${keys}
    order by ${tagOrderBy(query.order, 'x')} limit ${query.limit} offset ${query.offset}`;
}

/** The position of a list's last row, from which the next page starts. */
function positionOf(order: QuestionListQuery['order'], row: ListRow): ListPosition {
  return {
    order,
    at: order === 'active' ? row.activityKey : row.askKey,
    views: order === 'mostViewed' ? Number(row.viewCount) : null,
    id: Number(row.id),
  };
}

/**
 * Questions having this tag (the list's tag filter): a subquery the planner hashes once,
 * read from the tag's rows of a tag-page index, which hold only shown questions (`not
 * qt.deleted`: without it, no index has the tag's rows, and every tag's row is read).
 */
const hasTag = (name: string) =>
  sql`q.id in (select qt.question_id from question_tags qt join tags t on t.id = qt.tag_id
    where t.name = ${name} and not qt.deleted)`;

/** Questions having any of these tags ('My tags'), as hasTag. */
const hasAnyTag = (names: readonly string[]) =>
  sql`q.id in (select qt.question_id from question_tags qt join tags t on t.id = qt.tag_id
    where t.name = any(${sql.param(names)}::text[]) and not qt.deleted)`;

/** The list's conditions; `after` (a cursor's position) only for the page, never for its count. */
function listFilter(
  query: QuestionListQuery,
  search: SearchTerms | null,
  after: SQL | null = null,
  tagSet: readonly string[] | null = null,
): SQL {
  // A deleted question is in no list (the orders' indexes hold only the others).
  const conditions: SQL[] = [sql`q.deleted_at is null`];
  if (after) conditions.push(after);
  if (query.order === 'unanswered') conditions.push(sql`q.answer_count = 0`);
  if (query.tag) conditions.push(hasTag(query.tag.toLowerCase()));
  if (tagSet) conditions.push(hasAnyTag(tagSet));
  if (search) conditions.push(matchesAny(search));
  return sql`where ${sql.join(conditions, sql` and `)}`;
}

/** List rows with their tags (kept by cache/question-tags.ts). */
async function summaries(db: Db, rows: SummaryRow[]): Promise<TaggedSummaryRow[]> {
  const normalised = rows.map((row) => ({
    ...row,
    id: Number(row.id),
    askDateTime: new Date(row.askDateTime),
    lastActivityAt: new Date(row.lastActivityAt),
  }));
  const tags = await tagsOf(
    db,
    normalised.map((row) => row.id),
  );
  return normalised.map((row) => ({ ...row, tags: tags.get(row.id) ?? [] }));
}

/** The number of questions in the home list (no search), from the counters where it can be. */
async function countQuestions(db: Db, query: QuestionListQuery, tagSet: readonly string[] | null): Promise<number> {
  if (tagSet) {
    // 'My tags': the distinct questions of the tags' rows (the page is cached, and so is this).
    const [row] = await queryPrepared<{ total: number }>(
      db,
      sql`select count(distinct qt.question_id)::int as total from question_tags qt
        where qt.tag_id in (select id from tags where name = any(${sql.param(tagSet)}::text[])) and not qt.deleted
          and (${query.order !== 'unanswered'} or qt.answer_count = 0)`,
    );
    return Number(row?.total ?? 0);
  }
  if (query.tag && query.order !== 'unanswered') {
    // The tag's own count (kept by the asking command): counting its questions took 2-3 ms.
    const [row] = await queryPrepared<{ total: number }>(
      db,
      sql`select question_count as total from tags where name = ${query.tag.toLowerCase()}`,
    );
    return Number(row?.total ?? 0);
  }
  if (!query.tag) {
    const [row] = await queryPrepared<{ total: number; unanswered: number }>(
      db,
      sql`select total, unanswered from question_counters`,
    );
    return Number(query.order === 'unanswered' ? row?.unanswered : row?.total) || 0;
  }
  // A tag's unanswered questions: its rows in the partial index of them.
  const [row] = await queryPrepared<{ total: number }>(
    db,
    sql`select count(*)::int as total from question_tags qt
      where qt.tag_id = (select id from tags where name = ${query.tag.toLowerCase()}) and qt.answer_count = 0
        and not qt.deleted`,
  );
  return Number(row?.total ?? 0);
}

/**
 * A search that no statistics call common: its matches, up to LIMITS.searchCountCap, in
 * one statement with their number and the page among them (taken from the indexes and
 * sorted: read once, without walking the list). `null` when the cap is reached: a page
 * among the cap's first matches would be the wrong one.
 */
async function fewMatches(
  db: Db,
  query: QuestionListQuery,
  filter: SQL,
  after: SQL | null,
): Promise<{ rows: ListRow[]; total: number } | null> {
  const found = await queryRows<ListRow & { matchCount: number }>(
    db,
    sql`with matches as materialized (
        select q.id, q.title, q.asked_by, q.ask_date_time, q.last_activity_at, q.answer_count, q.view_count,
          q.up_count, q.down_count, q.accepted_answer_id
        from questions q ${filter} limit ${LIMITS.searchCountCap})
      select counted.n as "matchCount", page.* from (select count(*)::int as n from matches) counted
      left join lateral (
        -- The page first, then its askers (not every asker hashed for a thousand matches).
        select ${SUMMARY_COLUMNS}, ${KEY_COLUMNS} from (
          select * from matches q ${after ? sql`where ${after}` : sql``}
          order by ${ORDER_BY[query.order]} limit ${query.limit} offset ${query.offset}
        ) q join accounts a on a.id = q.asked_by
        order by ${ORDER_BY[query.order]}
      ) page on true`,
  );
  const total = Number(found[0]?.matchCount ?? 0);
  if (total >= LIMITS.searchCountCap) return null;
  // No page (an offset past the matches) still gives the count, on a row of nulls.
  return { rows: found.filter((row) => row.id !== null), total };
}

/**
 * One page of the home list in the database's order, the number of all matches, and, when
 * the page is full, the cursor of the page after it. With `after`, the page starts after
 * that position instead of at `offset`; the total still counts the whole list.
 */
export async function listQuestions(
  db: Db,
  query: QuestionListQuery,
  after: ListPosition | null = null,
  /** 'My tags': the tags (names, lower case) whose questions the list holds; null for no such filter. */
  tagSet: readonly string[] | null = null,
): Promise<{ rows: TaggedSummaryRow[]; total: number; nextCursor: string | null }> {
  const order = ORDER_BY[query.order];
  const afterCondition = after ? AFTER[query.order](after) : null;
  const mostViewed = query.order === 'mostViewed';
  const page = (ids: SQL) => sql`select ${SUMMARY_COLUMNS}, ${KEY_COLUMNS} from (${ids}) page
    join questions q on q.id = page.id join accounts a on a.id = q.asked_by
    order by ${order}`;
  // The page's ids first (an index scan along the order from the cursor or through the
  // offset, testing each question against the filter), then their rows. mostViewed walks the
  // whole list's rank rows (schema: view_ranks), each question's row found by its key.
  const inOrder = (filter: SQL) =>
    page(
      mostViewed
        ? sql`select r.question_id as id from view_ranks r join questions q on q.id = r.question_id ${filter}
            and r.tag_id = ${WHOLE_LIST} and not r.deleted
            order by ${tagOrderBy(query.order, 'r')} limit ${query.limit} offset ${query.offset}`
        : sql`select q.id from questions q ${filter} order by ${order} limit ${query.limit} offset ${query.offset}`,
    );
  // The walk's start: on the rank row's keys in mostViewed (the same values as the question's).
  const walkAfter = after && mostViewed ? tagAfter(query.order, 'r', after) : afterCondition;
  const result = async (rows: ListRow[], total: number) => {
    const last = rows.length === query.limit ? rows.at(-1) : undefined;
    return {
      rows: await summaries(db, rows),
      total,
      nextCursor: last ? encodeCursor(positionOf(query.order, last)) : null,
    };
  };
  if (tagSet?.length === 0) return result([], 0);
  if (!query.search?.trim()) {
    const ids = query.tag
      ? page(tagPageIds(query, tagNamed(query.tag.toLowerCase()), after))
      : tagSet
        ? page(tagSetPageIds(query, tagSet, after))
        : mostViewed
          ? page(tagPageIds(query, sql`${WHOLE_LIST}::bigint`, after))
          : inOrder(listFilter(query, null, afterCondition));
    // A fixed shape per order, tag or not and cursor or not, with a plan that suits every
    // value (a range of one index): prepared.
    const [rows, total] = await Promise.all([queryPrepared<ListRow>(db, ids), countQuestions(db, query, tagSet)]);
    return result(rows, total);
  }
  // Walking the list's order and testing each question is quick when matches are many,
  // but with a rare word (an error code) it would read the whole table, and the planner
  // cannot always tell the two apart. A word or tag that PostgreSQL's statistics call
  // common (in a plain search: no other filter) is walked at once; anything else is taken
  // from the indexes with its count, and walked only if it turns out to reach the cap.
  // The total is then the cap (the list says "N+"): counting every match of a common word
  // over a million questions costs more than the page itself.
  const search = await searchTerms(db, query.search);
  const filter = listFilter(query, search, null, tagSet);
  const plain = !query.tag && !tagSet && query.order !== 'unanswered';
  const few =
    search && plain && (await anyTermIsCommon(db, search)) ? null : await fewMatches(db, query, filter, afterCondition);
  const { rows, total } = few ?? {
    rows: await queryRows<ListRow>(db, inOrder(listFilter(query, search, walkAfter, tagSet))),
    total: LIMITS.searchCountCap,
  };
  return result(rows, total);
}

/** A question's list row; null when there is none, or it is deleted. */
export async function getQuestionSummary(db: Db, questionId: number): Promise<TaggedSummaryRow | null> {
  const rows = await queryPrepared<SummaryRow>(
    db,
    sql`select ${SUMMARY_COLUMNS} from questions q join accounts a on a.id = q.asked_by
      where q.id = ${questionId} and q.deleted_at is null`,
  );
  const [summary] = await summaries(db, rows);
  return summary ?? null;
}

/** A user's questions, newest first; null when the user does not exist. */
export async function listQuestionsBy(db: Db, username: string): Promise<TaggedSummaryRow[] | null> {
  const accountId = await accountIdByName(db, username);
  if (accountId === null) return null;
  const rows = await queryRows<SummaryRow>(
    db,
    sql`select ${SUMMARY_COLUMNS} from questions q join accounts a on a.id = q.asked_by
      where q.asked_by = ${accountId} and q.deleted_at is null order by q.ask_date_time desc nulls last, q.id desc nulls last limit 500`,
  );
  return summaries(db, rows);
}
