import {
  LIMITS,
  parseSearch,
  type Answer,
  type Comment,
  type CommentTarget,
  type HeldFor,
  type QuestionSummary,
  type Tag,
  type UserAnswer,
} from '@porpoise/core';
import { type QuestionListQuery } from '@porpoise/core/schemas';
import { sql, type SQL } from 'drizzle-orm';
import type { SocketPayloads } from '@porpoise/core/contract';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';
import { accountIdByName } from './accounts.ts';
import { PUBLIC_VIEW, type HiddenPostsSeen } from '../policies/authorize.ts';
import { anyTagQueryText, tagLexeme } from '../db/search-vector.ts';
import { encodeCursor, type ListPosition } from '../lib/list-cursor.ts';
import {
  presentAnswer,
  presentComment,
  presentSummary,
  presentQuestion,
  presentTag,
  presentUserAnswer,
  type AnswerRow,
  type ClosedRow,
  type RevisionRow,
  type CommentRow,
  type QuestionDetail,
  type SummaryRow,
} from '../presenters/question.ts';

const SUMMARY_COLUMNS = sql`q.id, q.title, a.username as "askedBy", q.ask_date_time as "askDateTime",
  q.last_activity_at as "lastActivityAt", q.answer_count as "answerCount", q.view_count as "viewCount",
  q.up_count as "upCount", q.down_count as "downCount", q.accepted_answer_id as "acceptedAnswerId"`;

/** The name of a post's last editor (null when never edited). */
const editorOf = (accountId: SQL) => sql`(select username from accounts where id = ${accountId})`;

/** The names of an answer's voters one way (1 up, -1 down), in the order they voted. */
const answerVoters = (answerId: SQL, value: 1 | -1) =>
  sql`array(select va.username from answer_votes v join accounts va on va.id = v.account_id
    where v.answer_id = ${answerId} and v.value = ${sql.raw(String(value))} order by v.voted_at, va.id)`;

/**
 * Whether a post shows to a reader (docs/product.md section 9): it is not deleted, or the reader
 * sees every deleted post (a moderator) or wrote it. Parameters, not SQL text: one
 * prepared statement serves every reader.
 */
const shows = (seen: HiddenPostsSeen, deletedAt: SQL, authorId: SQL) =>
  sql`(${deletedAt} is null or ${seen.all}::boolean or ${authorId} = ${seen.authorId}::bigint)`;

/** An answer's columns as AnswerRow has them, for a query over `answers an` joined to its author `a`. */
const ANSWER_COLUMNS = sql`an.id, an.text, a.username as "ansBy", an.ans_date_time as "ansDateTime",
  ${answerVoters(sql`an.id`, 1)} as "upVotes", ${answerVoters(sql`an.id`, -1)} as "downVotes",
  an.edited_at as "editedAt", ${editorOf(sql`an.edited_by`)} as "editedBy", an.deleted_at as "deletedAt",
  an.held_for as "heldFor"`;

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
 * A tag's page in these orders reads the tag's own rows of question_tags, which keep the
 * question's sort keys (schema: question_tags): a range of one index, as the whole list's
 * pages are, instead of every question carrying the tag read and sorted. mostViewed is not
 * among them: view counts move on every first view, too often to keep a copy.
 */
const tagOrderBy = (column: SQL) => ({
  orderBy: sql`${column} desc nulls last, qt.question_id desc nulls last`,
  after: ({ at, id }: ListPosition) => sql`(${column}, qt.question_id) < (${at}::timestamptz, ${id}::bigint)`,
});
const TAG_ORDER: Partial<Record<QuestionListQuery['order'], ReturnType<typeof tagOrderBy>>> = {
  newest: tagOrderBy(sql`qt.ask_date_time`),
  unanswered: tagOrderBy(sql`qt.ask_date_time`),
  active: tagOrderBy(sql`qt.last_activity_at`),
};

/** The ids of one page of a tag's list, from the tag's own rows (TAG_ORDER). */
function tagPageIds(query: QuestionListQuery, tag: string, after: ListPosition | null): SQL | null {
  const order = TAG_ORDER[query.order];
  if (!order) return null;
  const conditions = [sql`qt.tag_id = (select id from tags where name = ${tag})`, sql`not qt.deleted`];
  if (query.order === 'unanswered') conditions.push(sql`qt.answer_count = 0`);
  if (after) conditions.push(order.after(after));
  return sql`select qt.question_id as id from question_tags qt where ${sql.join(conditions, sql` and `)}
    order by ${order.orderBy} limit ${query.limit} offset ${query.offset}`;
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

/** `a, b, c` as bound parameters, for `in (...)`. */
const inList = (values: Array<string | number>) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** A map kept per database (the tests open many), made on first use. */
function keptFor<K, V>(maps: WeakMap<Db, Map<K, V>>, db: Db): Map<K, V> {
  let kept = maps.get(db);
  if (!kept) maps.set(db, (kept = new Map<K, V>()));
  return kept;
}

/**
 * Questions having this tag (the list's tag filter): a subquery the planner hashes once,
 * read from the tag's rows of a tag-page index, which hold only shown questions (`not
 * qt.deleted`: without it, no index has the tag's rows, and every tag's row is read).
 */
const hasTag = (name: string) =>
  sql`q.id in (select qt.question_id from question_tags qt join tags t on t.id = qt.tag_id
    where t.name = ${name} and not qt.deleted)`;

/** A search's terms: its tags (by id: the unknown ones dropped) and its words. */
interface SearchTerms {
  tagIds: number[];
  words: string[];
}

/**
 * Any of the tags or any of the words (whole word, any case) in the question's search
 * vector: one condition on the full-text index, which PostgreSQL can take either way, as
 * a walk along the list's order testing each question or as the index's few matches.
 */
function matchesAny({ tagIds, words }: SearchTerms): SQL {
  const queries = words.map((word) => sql`plainto_tsquery('simple', ${word})`);
  // A constant (not a subquery), so the planner sees how common the tags are.
  if (tagIds.length > 0) queries.unshift(sql`${anyTagQueryText(tagIds)}::tsquery`);
  return queries.length > 0 ? sql`q.search @@ (${sql.join(queries, sql` || `)})` : sql`false`;
}

/** The list's conditions; `after` (a cursor's position) only for the page, never for its count. */
function listFilter(query: QuestionListQuery, search: SearchTerms | null, after: SQL | null = null): SQL {
  // A deleted question is in no list (the orders' indexes hold only the others).
  const conditions: SQL[] = [sql`q.deleted_at is null`];
  if (after) conditions.push(after);
  if (query.order === 'unanswered') conditions.push(sql`q.answer_count = 0`);
  if (query.tag) conditions.push(hasTag(query.tag.toLowerCase()));
  if (search) conditions.push(matchesAny(search));
  return sql`where ${sql.join(conditions, sql` and `)}`;
}

/**
 * Tag ids by name, per database: a tag keeps its id for good, so a known name is never
 * asked again (an unknown one is: it may be created any time). Tags are few next to
 * questions; the map is dropped if it ever grows past TAG_IDS_KEPT.
 */
const TAG_IDS_KEPT = 50_000;
const tagIdCache = new WeakMap<Db, Map<string, number>>();

async function searchTerms(db: Db, text: string): Promise<SearchTerms | null> {
  const { tags, words } = parseSearch(text);
  if (tags.length === 0 && words.length === 0) return null;
  const known = keptFor(tagIdCache, db);
  if (known.size > TAG_IDS_KEPT) known.clear();
  const unknown = tags.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const rows = await queryRows<{ id: number; name: string }>(
      db,
      sql`select id, name from tags where name in (${inList(unknown)})`,
    );
    for (const row of rows) known.set(row.name, Number(row.id));
  }
  return { tagIds: tags.flatMap((name) => known.get(name) ?? []), words };
}

/**
 * Lexemes in at least twice the count's cap of questions, by PostgreSQL's own statistics:
 * the most common lexemes of the search column that ANALYZE samples (autovacuum keeps
 * them fresh), read at most once a minute. Deleted questions are few, so what ANALYZE saw
 * is still there: a search for such a word or tag has at least the cap's matches, without
 * counting them.
 */
const COMMON_WORDS_TTL_MS = 60_000;
const commonWordsCache = new WeakMap<Db, { readAt: number; words: Promise<Set<string>> }>();

function commonLexemes(db: Db): Promise<Set<string>> {
  const cached = commonWordsCache.get(db);
  if (cached && Date.now() - cached.readAt < COMMON_WORDS_TTL_MS) return cached.words;
  const words = queryRows<{ word: string }>(
    db,
    sql`select f.elem as word
      from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) f(elem, freq), pg_class c
      where s.schemaname = current_schema() and s.tablename = 'questions' and s.attname = 'search'
        and c.oid = 'questions'::regclass and f.freq * c.reltuples >= ${2 * LIMITS.searchCountCap}`,
  ).then(
    (rows) => new Set(rows.map((row) => row.word)),
    () => new Set<string>(),
  );
  commonWordsCache.set(db, { readAt: Date.now(), words });
  return words;
}

/**
 * Whether any of the terms is common. A plain word (letters and digits) is its own and
 * only lexeme in the 'simple' configuration; a tag is its lexeme.
 */
async function anyTermIsCommon(db: Db, { tagIds, words }: SearchTerms): Promise<boolean> {
  const common = await commonLexemes(db);
  return (
    tagIds.some((id) => common.has(tagLexeme(id))) || words.some((word) => /^[a-z0-9]+$/.test(word) && common.has(word))
  );
}

/**
 * A question's tags change only when it is edited (tags are neither renamed nor
 * re-described), so once read they are kept, per database, for the last TAGS_KEPT
 * questions read: a list or search page then costs one query less. An edit that changes
 * them makes every process forget that question's (forgetQuestionTags, from the read
 * cache's invalidation), and a read that was under way then keeps nothing it read.
 */
const TAGS_KEPT = 20_000;
const tagsCache = new WeakMap<Db, Map<number, Tag[]>>();
const tagsForgotten = new WeakMap<Db, number>();

/** Forgets the kept tags of these questions (their tags were edited). */
export function forgetQuestionTags(db: Db, questionIds: readonly number[]): void {
  if (questionIds.length === 0) return;
  tagsForgotten.set(db, (tagsForgotten.get(db) ?? 0) + 1);
  const kept = keptFor(tagsCache, db);
  for (const id of questionIds) kept.delete(id);
}

/** Tags of several questions, keyed by question id: the ones not kept yet in one query. */
async function tagsOf(db: Db, questionIds: number[]): Promise<Map<number, Tag[]>> {
  const kept = keptFor(tagsCache, db);
  const missing = questionIds.filter((id) => !kept.has(id));
  const epoch = tagsForgotten.get(db) ?? 0;
  if (missing.length > 0) {
    const rows = await queryPrepared<{ questionId: number; name: string; description: string }>(
      db,
      sql`select qt.question_id as "questionId", t.name, t.description
        from question_tags qt join tags t on t.id = qt.tag_id
        where qt.question_id = any(${sql.param(missing)}::bigint[])
        order by t.name`,
    );
    // A question's tags are written in the same transaction as the question: a question
    // this request has read has all of its tags (an empty list is an answer too).
    const read = new Map<number, Tag[]>(missing.map((id) => [id, []]));
    for (const row of rows) read.get(Number(row.questionId))?.push(presentTag(row));
    if ((tagsForgotten.get(db) ?? 0) !== epoch)
      return new Map(questionIds.map((id) => [id, kept.get(id) ?? read.get(id) ?? []]));
    for (const [id, tags] of read) kept.set(id, tags);
    // Oldest first out: a Map iterates in insertion order.
    for (const id of kept.keys()) {
      if (kept.size <= TAGS_KEPT) break;
      kept.delete(id);
    }
  }
  return new Map(questionIds.map((id) => [id, kept.get(id) ?? []]));
}

async function summaries(db: Db, rows: SummaryRow[]): Promise<QuestionSummary[]> {
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
  return normalised.map((row) => presentSummary(row, tags.get(row.id) ?? []));
}

/** The number of questions in the home list (no search), from the counters where it can be. */
async function countQuestions(db: Db, query: QuestionListQuery): Promise<number> {
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
): Promise<{ questions: QuestionSummary[]; total: number; nextCursor: string | null }> {
  const order = ORDER_BY[query.order];
  const afterCondition = after ? AFTER[query.order](after) : null;
  const page = (ids: SQL) => sql`select ${SUMMARY_COLUMNS}, ${KEY_COLUMNS} from (${ids}) page
    join questions q on q.id = page.id join accounts a on a.id = q.asked_by
    order by ${order}`;
  // The page's ids first (an index scan along the order from the cursor or through the
  // offset), then their rows.
  const inOrder = (filter: SQL) =>
    page(sql`select q.id from questions q ${filter} order by ${order} limit ${query.limit} offset ${query.offset}`);
  const result = async (rows: ListRow[], total: number) => {
    const last = rows.length === query.limit ? rows.at(-1) : undefined;
    return {
      questions: await summaries(db, rows),
      total,
      nextCursor: last ? encodeCursor(positionOf(query.order, last)) : null,
    };
  };
  if (!query.search?.trim()) {
    const tagIds = query.tag ? tagPageIds(query, query.tag.toLowerCase(), after) : null;
    // A fixed shape per order, tag or not and cursor or not, with a plan that suits every
    // value: prepared. Not a tag's mostViewed page, whose best plan depends on the tag.
    const run = tagIds || !query.tag ? queryPrepared : queryRows;
    const [rows, total] = await Promise.all([
      run<ListRow>(db, tagIds ? page(tagIds) : inOrder(listFilter(query, null, afterCondition))),
      countQuestions(db, query),
    ]);
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
  const filter = listFilter(query, search);
  const plain = !query.tag && query.order !== 'unanswered';
  const few =
    search && plain && (await anyTermIsCommon(db, search)) ? null : await fewMatches(db, query, filter, afterCondition);
  const { rows, total } = few ?? {
    rows: await queryRows<ListRow>(db, inOrder(listFilter(query, search, afterCondition))),
    total: LIMITS.searchCountCap,
  };
  return result(rows, total);
}

/** A question's list row; null when there is none, or it is deleted. */
export async function getQuestionSummary(db: Db, questionId: number): Promise<QuestionSummary | null> {
  const rows = await queryPrepared<SummaryRow>(
    db,
    sql`select ${SUMMARY_COLUMNS} from questions q join accounts a on a.id = q.asked_by
      where q.id = ${questionId} and q.deleted_at is null`,
  );
  const [summary] = await summaries(db, rows);
  return summary ?? null;
}

/** A user's questions, newest first; null when the user does not exist. */
export async function listQuestionsBy(db: Db, username: string): Promise<QuestionSummary[] | null> {
  const accountId = await accountIdByName(db, username);
  if (accountId === null) return null;
  const rows = await queryRows<SummaryRow>(
    db,
    sql`select ${SUMMARY_COLUMNS} from questions q join accounts a on a.id = q.asked_by
      where q.asked_by = ${accountId} and q.deleted_at is null order by q.ask_date_time desc nulls last, q.id desc nulls last limit 500`,
  );
  return summaries(db, rows);
}

/**
 * One answer's row (a new answer has no comments yet); null when there is none, or it (or
 * its question) is deleted and `seen` does not show it (events are read as the public sees them).
 */
export async function getAnswerRow(
  db: Db,
  answerId: number,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<AnswerRow | null> {
  const [row] = await queryPrepared<AnswerRow>(
    db,
    sql`select ${ANSWER_COLUMNS} from answers an join accounts a on a.id = an.ans_by
        join questions q on q.id = an.question_id
      where an.id = ${answerId} and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)}
        and ${shows(seen, sql`q.deleted_at`, sql`q.asked_by`)}`,
  );
  return row ? { ...row, id: Number(row.id), ansDateTime: new Date(row.ansDateTime) } : null;
}

/** One comment's row, with what it is under; null when there is none, or it (or a post it is under) is deleted. */
export async function getCommentRow(
  db: Db,
  commentId: number,
): Promise<(CommentRow & { target: CommentTarget; parentId: number }) | null> {
  const [row] = await queryPrepared<CommentRow & { questionId: number | null; answerId: number | null }>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime",
        c.question_id as "questionId", c.answer_id as "answerId"
      from comments c join accounts a on a.id = c.comment_by
        left join answers an on an.id = c.answer_id
        join questions q on q.id = coalesce(c.question_id, an.question_id)
      where c.id = ${commentId} and c.deleted_at is null and an.deleted_at is null and q.deleted_at is null`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    text: row.text,
    commentBy: row.commentBy,
    commentDateTime: new Date(row.commentDateTime),
    target: row.questionId === null ? 'answer' : 'question',
    parentId: Number(row.questionId ?? row.answerId),
  };
}

/** An answer's comments that show, oldest first (an undeleted answer comes back with them). */
export async function getAnswerComments(db: Db, answerId: number): Promise<Comment[]> {
  const rows = await queryRows<CommentRow>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime"
      from comments c join accounts a on a.id = c.comment_by
      where c.answer_id = ${answerId} and c.deleted_at is null order by c.comment_date_time, c.id`,
  );
  return rows.map((row) =>
    presentComment({ ...row, id: Number(row.id), commentDateTime: new Date(row.commentDateTime) }),
  );
}

/**
 * A question's closing (null while open), for closeUpdate; undefined when there is no such
 * question, or it is deleted.
 */
export async function getClosing(db: Db, questionId: number): Promise<ClosedRow | null | undefined> {
  const [row] = await queryRows<{ closed: ClosedRow | null }>(
    db,
    sql`select ${closedJson} as closed from questions q where q.id = ${questionId} and q.deleted_at is null`,
  );
  if (!row) return undefined;
  return row.closed;
}

/**
 * A page of a question's answers, oldest first (ties by id), each with its comments: the
 * first LIMITS.answerPageSize, or that many after the answer `afterId` (a keyset on the
 * question's answer index, however many there are). Deleted ones only as `seen` lets.
 */
export async function getAnswerPage(
  db: Db,
  questionId: number,
  afterId: number | null,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<Answer[]> {
  const after =
    afterId === null
      ? sql``
      : sql`and (an.ans_date_time, an.id) > (select ans_date_time, id from answers
          where id = ${afterId} and question_id = ${questionId})`;
  const answers = await queryPrepared<AnswerRow>(
    db,
    sql`select ${ANSWER_COLUMNS}
      from answers an join accounts a on a.id = an.ans_by
      where an.question_id = ${questionId} and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)} ${after}
      order by an.ans_date_time, an.id limit ${LIMITS.answerPageSize}`,
  );
  if (answers.length === 0) return [];
  const comments = await queryPrepared<CommentRow & { answerId: number }>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime",
        c.answer_id as "answerId", c.deleted_at as "deletedAt", c.held_for as "heldFor"
      from comments c join accounts a on a.id = c.comment_by
      where c.answer_id = any(${sql.param(answers.map((row) => Number(row.id)))}::bigint[])
        and ${shows(seen, sql`c.deleted_at`, sql`c.comment_by`)}
      order by c.comment_date_time, c.id`,
  );
  const commentsByAnswer = new Map<number, Comment[]>();
  for (const row of comments) {
    const answerId = Number(row.answerId);
    const presented = presentComment({ ...row, id: Number(row.id), commentDateTime: new Date(row.commentDateTime) });
    commentsByAnswer.set(answerId, [...(commentsByAnswer.get(answerId) ?? []), presented]);
  }
  return answers.map((row) =>
    presentAnswer(
      { ...row, id: Number(row.id), ansDateTime: new Date(row.ansDateTime) },
      commentsByAnswer.get(Number(row.id)) ?? [],
    ),
  );
}

/**
 * A question's most recent viewers (LIMITS.viewersShown), oldest of them first: a scan of
 * the (question, time) index from its newest end, however many have viewed it.
 */
const recentViewers = (questionId: SQL) =>
  sql`select username from (
    select a.username, v.viewed_at from views v join accounts a on a.id = v.account_id
    where v.question_id = ${questionId} order by v.viewed_at desc limit ${LIMITS.viewersShown}
  ) recent order by viewed_at`;

/** A question's exact view count and, where asked, its recent viewers (for a page that shows them). */
export interface ViewCounts {
  viewCount: number;
  recent?: string[];
}

/** The view counts of these questions, with the recent viewers of those in `withViewers`: one round trip. */
export async function getViewCounts(
  db: Db,
  questionIds: number[],
  withViewers: ReadonlySet<number>,
): Promise<Map<number, ViewCounts>> {
  if (questionIds.length === 0) return new Map();
  const rows = await queryPrepared<{ id: number; viewCount: number; recent: string[] | null }>(
    db,
    sql`select q.id, q.view_count as "viewCount",
        case when q.id = any(${sql.param([...withViewers])}::bigint[])
          then array(${recentViewers(sql`q.id`)}) end as recent
      from questions q where q.id = any(${sql.param(questionIds)}::bigint[])`,
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { viewCount: Number(row.viewCount), ...(row.recent === null ? {} : { recent: row.recent }) },
    ]),
  );
}

/** A comment as the one-statement page read gives it (JSON: its time is text). */
interface CommentJson {
  id: number;
  text: string;
  commentBy: string;
  commentDateTime: string;
  deletedAt: string | null;
  heldFor: HeldFor | null;
}

const commentsJson = (where: SQL, seen: HiddenPostsSeen) => sql`coalesce((select json_agg(json_build_object(
    'id', c.id, 'text', c.text, 'commentBy', ca.username, 'commentDateTime', c.comment_date_time,
    'deletedAt', c.deleted_at, 'heldFor', c.held_for)
    order by c.comment_date_time, c.id)
  from comments c join accounts ca on ca.id = c.comment_by
  where ${where} and ${shows(seen, sql`c.deleted_at`, sql`c.comment_by`)}), '[]')`;

/**
 * The authors of a question's deleted answers and comments (those under its answers too),
 * read only when it has some (hidden_count, kept by the deleting commands).
 */
const hiddenAuthorIds = sql`case when q.hidden_count = 0 then '{}'::bigint[] else array(
    select an.ans_by from answers an where an.question_id = q.id and an.deleted_at is not null
    union select c.comment_by from comments c where c.question_id = q.id and c.deleted_at is not null
    union select c.comment_by from comments c join answers an on an.id = c.answer_id
      where an.question_id = q.id and c.deleted_at is not null) end`;

/** Why, when and by whom the question was closed, with the original of a duplicate while it shows; null if open. */
const closedJson = sql`case when q.closed_at is null then null else json_build_object(
    'reason', q.close_reason, 'closedAt', q.closed_at, 'closedBy', ${editorOf(sql`q.closed_by`)},
    'duplicateOf', (select json_build_object('id', d.id, 'title', d.title) from questions d
      where d.id = q.duplicate_of and d.deleted_at is null)) end`;

const presentCommentJson = (row: CommentJson) =>
  presentComment({ ...row, id: Number(row.id), commentDateTime: new Date(row.commentDateTime) });

/**
 * Everything the question page shows, with its first page of answers (each with its
 * comments), in one statement: one round trip and one pool connection per page, which a
 * community's first views (a third of its requests) made seven. Deleted answers and
 * comments only as `seen` lets (the cached page is the public one); a deleted question is
 * read with its mark, and the caller decides who may see it.
 */
export async function getQuestionDetail(
  db: Db,
  questionId: number,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<QuestionDetail | null> {
  // Prepared: planning this statement took PostgreSQL 2-7 ms a call, running it 0.7-1.7 ms.
  const [row] = await queryPrepared<
    SummaryRow & {
      text: string;
      editedAt: string | null;
      editedBy: string | null;
      askerId: number;
      deletedAt: string | null;
      heldFor: HeldFor | null;
      closed: ClosedRow | null;
      hiddenAuthorIds: Array<number | string>;
      tags: Tag[];
      comments: CommentJson[];
      votes: Array<[string, number]>;
      views: string[];
      answers: Array<AnswerRow & { ansDateTime: string; comments: CommentJson[] }>;
    }
  >(
    db,
    sql`select ${SUMMARY_COLUMNS}, q.text, q.edited_at as "editedAt", ${editorOf(sql`q.edited_by`)} as "editedBy",
      q.asked_by as "askerId", q.deleted_at as "deletedAt", q.held_for as "heldFor", ${closedJson} as closed,
      ${hiddenAuthorIds} as "hiddenAuthorIds",
      coalesce((select json_agg(json_build_object('name', t.name, 'description', t.description) order by t.name)
        from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = q.id), '[]') as tags,
      ${commentsJson(sql`c.question_id = q.id`, seen)} as comments,
      coalesce((select json_agg(json_build_array(va.username, v.value))
        from votes v join accounts va on va.id = v.account_id where v.question_id = q.id), '[]') as votes,
      array(${recentViewers(sql`q.id`)}) as views,
      coalesce((select json_agg(json_build_object('id', an.id, 'text', an.text, 'ansBy', an.ans_by_name,
          'ansDateTime', an.ans_date_time, 'comments', ${commentsJson(sql`c.answer_id = an.id`, seen)},
          'upVotes', ${answerVoters(sql`an.id`, 1)}, 'downVotes', ${answerVoters(sql`an.id`, -1)},
          'editedAt', an.edited_at, 'editedBy', ${editorOf(sql`an.edited_by`)}, 'deletedAt', an.deleted_at,
          'heldFor', an.held_for)
          order by an.ans_date_time, an.id)
        from (select an.*, aa.username as ans_by_name from answers an join accounts aa on aa.id = an.ans_by
          where an.question_id = q.id and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)}
          order by an.ans_date_time, an.id limit ${LIMITS.answerPageSize}) an), '[]') as answers
    from questions q join accounts a on a.id = q.asked_by where q.id = ${questionId}`,
  );
  if (!row) return null;
  const { tags, comments, votes, views, answers, ...question } = row;
  return {
    question: {
      ...question,
      id: Number(question.id),
      askerId: Number(question.askerId),
      hiddenAuthorIds: question.hiddenAuthorIds.map(Number),
      closed:
        question.closed === null
          ? null
          : {
              ...question.closed,
              duplicateOf:
                question.closed.duplicateOf === null
                  ? null
                  : { id: Number(question.closed.duplicateOf.id), title: question.closed.duplicateOf.title },
            },
      askDateTime: new Date(question.askDateTime),
      lastActivityAt: new Date(question.lastActivityAt),
    },
    tags: tags.map(presentTag),
    answers: answers.map((answer) =>
      presentAnswer(
        { ...answer, id: Number(answer.id), ansDateTime: new Date(answer.ansDateTime) },
        answer.comments.map(presentCommentJson),
      ),
    ),
    comments: comments.map(presentCommentJson),
    upVotes: votes.filter(([, value]) => Number(value) > 0).map(([username]) => username),
    downVotes: votes.filter(([, value]) => Number(value) < 0).map(([username]) => username),
    views,
  };
}

/** A user's answers, newest first, each with its question's id and title; null when the user does not exist. */
export async function listAnswersBy(db: Db, username: string) {
  const accountId = await accountIdByName(db, username);
  if (accountId === null) return null;
  const rows = await queryRows<Omit<AnswerRow, 'upVotes' | 'downVotes'> & { qid: number; questionTitle: string }>(
    db,
    sql`select an.id, an.text, a.username as "ansBy", an.ans_date_time as "ansDateTime",
        an.question_id as qid, q.title as "questionTitle"
      from answers an join accounts a on a.id = an.ans_by join questions q on q.id = an.question_id
      where an.ans_by = ${accountId} and an.deleted_at is null and q.deleted_at is null order by an.ans_date_time desc nulls last, an.id desc nulls last limit 500`,
  );
  return rows.map(presentUserAnswer);
}

/**
 * Every tag with the number of questions using it, most used first. The count is of shown
 * questions (commands keep it), so a tag whose questions are all held or deleted is not
 * listed (docs/product.md section 10).
 */
export async function listTagsWithCounts(db: Db) {
  return queryRows<{ name: string; description: string; qcnt: number }>(
    db,
    sql`select name, description, question_count as qcnt from tags where question_count > 0
      order by question_count desc, name`,
  );
}

/** A tag by name, only while a shown question carries it (docs/product.md section 10), as the list shows it. */
export async function getTag(db: Db, name: string) {
  const [tag] = await queryRows<{ name: string; description: string }>(
    db,
    sql`select name, description from tags where name = ${name.toLowerCase()} and question_count > 0`,
  );
  return tag ?? null;
}

/** The current up and down voters of a question, for voteUpdate. */
export async function getVoters(db: Db, questionId: number): Promise<{ upVotes: string[]; downVotes: string[] }> {
  const rows = await queryPrepared<{ username: string; value: number }>(
    db,
    sql`select a.username, v.value from votes v join accounts a on a.id = v.account_id where v.question_id = ${questionId}`,
  );
  return {
    upVotes: rows.filter((row) => Number(row.value) > 0).map((row) => row.username),
    downVotes: rows.filter((row) => Number(row.value) < 0).map((row) => row.username),
  };
}

/** The current up and down voters of an answer, for answerVoteUpdate. */
export async function getAnswerVoters(db: Db, answerId: number): Promise<{ upVotes: string[]; downVotes: string[] }> {
  const [row] = await queryPrepared<{ upVotes: string[]; downVotes: string[] }>(
    db,
    sql`select ${answerVoters(sql`${answerId}::bigint`, 1)} as "upVotes",
      ${answerVoters(sql`${answerId}::bigint`, -1)} as "downVotes"`,
  );
  return { upVotes: row?.upVotes ?? [], downVotes: row?.downVotes ?? [] };
}

/** A post's author, whether it is deleted, and by whom: what the policies decide on. */
export interface Ownership {
  authorId: number;
  deleted: boolean;
  /** Who deleted it (null while it shows). */
  deletedBy: number | null;
  /** Hidden while nobody deleted it (flags, or waiting for approval): a moderator decides. */
  held: boolean;
}

const ownership = (row: {
  authorId: number;
  deleted: boolean;
  deletedBy: number | null;
  held?: boolean;
}): Ownership => ({
  authorId: Number(row.authorId),
  deleted: row.deleted,
  deletedBy: row.deletedBy === null ? null : Number(row.deletedBy),
  held: row.held === true,
});

/** Who asked a question, and whether it is deleted or closed; null when there is no such question. */
export async function getQuestionOwnership(
  db: Db,
  questionId: number,
): Promise<(Ownership & { askerId: number; closed: boolean }) | null> {
  const [row] = await queryPrepared<{
    askerId: number;
    deleted: boolean;
    deletedBy: number | null;
    held: boolean;
    closed: boolean;
  }>(
    db,
    sql`select asked_by as "askerId", deleted_at is not null as deleted, deleted_by as "deletedBy",
        held_for is not null as held,
        closed_at is not null as closed
      from questions where id = ${questionId}`,
  );
  if (!row) return null;
  return { ...ownership({ ...row, authorId: row.askerId }), askerId: Number(row.askerId), closed: row.closed };
}

/**
 * A post's revisions, newest first; a post never edited has one, its original (kept as a
 * row only from its first edit on). Null when the post does not exist.
 */
export async function listRevisions(
  db: Db,
  post: { questionId: number } | { answerId: number },
): Promise<RevisionRow[] | null> {
  const owner = 'questionId' in post ? sql`r.question_id = ${post.questionId}` : sql`r.answer_id = ${post.answerId}`;
  const rows = await queryRows<RevisionRow>(
    db,
    sql`select r.revision, r.title, r.text, r.tags, a.username as "editedBy", r.edited_at as "editedAt", r.reason
      from revisions r join accounts a on a.id = r.edited_by where ${owner} order by r.revision desc`,
  );
  if (rows.length > 0) {
    return rows.map((row) => ({ ...row, revision: Number(row.revision), editedAt: new Date(row.editedAt) }));
  }
  const original = await queryRows<RevisionRow>(
    db,
    'questionId' in post
      ? sql`select 1 as revision, q.title, q.text,
          coalesce((select json_agg(json_build_object('name', t.name, 'description', t.description) order by t.name)
            from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = q.id), '[]') as tags,
          a.username as "editedBy", q.ask_date_time as "editedAt", null as reason
        from questions q join accounts a on a.id = q.asked_by where q.id = ${post.questionId}`
      : sql`select 1 as revision, null as title, an.text, null as tags, a.username as "editedBy",
          an.ans_date_time as "editedAt", null as reason
        from answers an join accounts a on a.id = an.ans_by where an.id = ${post.answerId}`,
  );
  if (original.length === 0) return null;
  return original.map((row) => ({ ...row, revision: 1, editedAt: new Date(row.editedAt) }));
}

type QuestionEditPayload = SocketPayloads['questionEditUpdate'];

/** A question's title, text, tags and last edit, for questionEditUpdate. */
export async function getQuestionEdit(db: Db, questionId: number): Promise<QuestionEditPayload | null> {
  const detail = await getQuestionDetail(db, questionId);
  if (!detail || detail.question.deletedAt !== null) return null;
  const question = presentQuestion(detail);
  return {
    qid: question._id,
    title: question.title,
    text: question.text,
    tags: question.tags,
    editedAt: question.editedAt,
    editedBy: question.editedBy,
  };
}

/** One answer with its question's id and title (the answer's edit screen), or null. */
export async function getAnswerWithQuestion(db: Db, answerId: number): Promise<UserAnswer | null> {
  const [row] = await queryRows<{
    id: number;
    text: string;
    ansBy: string;
    ansDateTime: string;
    qid: number;
    questionTitle: string;
  }>(
    db,
    sql`select an.id, an.text, a.username as "ansBy", an.ans_date_time as "ansDateTime",
        an.question_id as qid, q.title as "questionTitle"
      from answers an join accounts a on a.id = an.ans_by join questions q on q.id = an.question_id
      where an.id = ${answerId}`,
  );
  return row ? presentUserAnswer(row) : null;
}

/**
 * Who wrote an answer, and whether it is deleted (so is an answer to a deleted question,
 * for whoever may not see that question); null when there is no such answer.
 */
export async function getAnswerOwnership(
  db: Db,
  answerId: number,
): Promise<(Ownership & { question: Ownership }) | null> {
  const [row] = await queryRows<{
    authorId: number;
    deleted: boolean;
    deletedBy: number | null;
    held: boolean;
    askerId: number;
    questionDeleted: boolean;
    questionDeletedBy: number | null;
  }>(
    db,
    sql`select an.ans_by as "authorId", an.deleted_at is not null as deleted, an.deleted_by as "deletedBy",
        an.held_for is not null as held, q.asked_by as "askerId", q.deleted_at is not null as "questionDeleted", q.deleted_by as "questionDeletedBy"
      from answers an join questions q on q.id = an.question_id where an.id = ${answerId}`,
  );
  if (!row) return null;
  return {
    ...ownership(row),
    question: ownership({ authorId: row.askerId, deleted: row.questionDeleted, deletedBy: row.questionDeletedBy }),
  };
}

/**
 * Who wrote a comment and whether it is deleted, with the posts it is under (its question,
 * and its answer if on one); null when there is no such comment.
 */
export async function getCommentOwnership(
  db: Db,
  commentId: number,
): Promise<(Ownership & { question: Ownership; answer: Ownership | null }) | null> {
  const [row] = await queryRows<{
    authorId: number;
    deleted: boolean;
    deletedBy: number | null;
    held: boolean;
    askerId: number;
    questionDeleted: boolean;
    answerAuthorId: number | null;
    answerDeleted: boolean | null;
  }>(
    db,
    sql`select c.comment_by as "authorId", c.deleted_at is not null as deleted, c.deleted_by as "deletedBy",
        c.held_for is not null as held, q.asked_by as "askerId", q.deleted_at is not null as "questionDeleted",
        an.ans_by as "answerAuthorId", an.deleted_at is not null as "answerDeleted"
      from comments c left join answers an on an.id = c.answer_id
        join questions q on q.id = coalesce(c.question_id, an.question_id)
      where c.id = ${commentId}`,
  );
  if (!row) return null;
  return {
    ...ownership(row),
    question: ownership({ authorId: row.askerId, deleted: row.questionDeleted, deletedBy: null }),
    answer:
      row.answerAuthorId === null
        ? null
        : ownership({ authorId: row.answerAuthorId, deleted: row.answerDeleted === true, deletedBy: null }),
  };
}
