import { LIMITS, type FlagReason, type FlagTarget, type HeldFor } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

/** An item that can be flagged: a post, or a forum or PorpChat message. */
export interface FlagTargetRef {
  targetType: FlagTarget;
  targetId: number;
}

/** An item of the review queue, as its row reads (presenters/moderation.ts shapes it). */
export interface ReviewRow {
  targetType: FlagTarget;
  targetId: number;
  since: Date;
  heldFor: HeldFor | null;
  deleted: boolean;
  author: string;
  /** Whether an account posted it (Suspend acts on it); the account itself is never named here. */
  suspendable: boolean;
  authorSuspended: boolean;
  context: string;
  text: string;
  questionId: number | null;
  threadId: string | null;
  flags: Array<{ reason: FlagReason; note: string | null; by: string; at: Date }>;
}

/**
 * The queue's items (docs/product.md section 10): those with open flags, and the posts waiting
 * for approval, each once, oldest first (by its oldest open flag, or when it was posted).
 */
const QUEUE = sql`
  select target_type, target_id, min(since) as since from (
    select target_type, target_id, created_at as since from flags where resolved_at is null
    union all
    select 'question', id, ask_date_time from questions where held_for = 'approval'
    union all
    select 'answer', id, ans_date_time from answers where held_for = 'approval'
  ) waiting group by target_type, target_id`;

/** The oldest items of the review queue (at most LIMITS.queuePage), and how many wait in all. */
export async function getReviewQueue(db: Db): Promise<{ items: ReviewRow[]; open: number }> {
  const refs = await queryRows<{ targetType: FlagTarget; targetId: number; open: number }>(
    db,
    sql`select target_type as "targetType", target_id as "targetId", count(*) over ()::int as open
      from (${QUEUE}) queue order by since, target_type, target_id limit ${LIMITS.queuePage}`,
  );
  const items = await describeItems(
    db,
    refs.map((ref) => ({ targetType: ref.targetType, targetId: Number(ref.targetId) })),
  );
  return { items, open: refs[0]?.open ?? 0 };
}

/** How many items wait in the review queue. */
export async function countReviewQueue(db: Db): Promise<number> {
  const [row] = await queryRows<{ open: number }>(db, sql`select count(*)::int as open from (${QUEUE}) queue`);
  return row?.open ?? 0;
}

/** One item as the queue shows it; null when it no longer waits (decided, or never flagged). */
export async function getReviewItem(db: Db, target: FlagTargetRef): Promise<ReviewRow | null> {
  const [item] = await describeItems(db, [target]);
  return item && (item.flags.length > 0 || item.heldFor === 'approval') ? item : null;
}

const ids = (refs: FlagTargetRef[], type: FlagTarget) =>
  sql.param(refs.filter((ref) => ref.targetType === type).map((ref) => ref.targetId));

/** Each item's content, author, context and open flags, in the order given; missing items are left out. */
async function describeItems(db: Db, refs: FlagTargetRef[]): Promise<ReviewRow[]> {
  if (refs.length === 0) return [];
  const rows = await queryRows<Omit<ReviewRow, 'flags'> & { authorId: number | null }>(
    db,
    sql`select 'question' as "targetType", q.id as "targetId", q.ask_date_time as since, q.held_for as "heldFor",
        q.deleted_at is not null as deleted, q.asked_by as "authorId", q.title as context, q.text,
        q.id as "questionId", null as "threadId"
      from questions q where q.id = any(${ids(refs, 'question')}::bigint[])
      union all
      select 'answer', an.id, an.ans_date_time, an.held_for, an.deleted_at is not null, an.ans_by, q.title, an.text,
        q.id, null
      from answers an join questions q on q.id = an.question_id where an.id = any(${ids(refs, 'answer')}::bigint[])
      union all
      select 'comment', c.id, c.comment_date_time, c.held_for, c.deleted_at is not null, c.comment_by, q.title, c.text,
        q.id, null
      from comments c left join answers an on an.id = c.answer_id
        join questions q on q.id = coalesce(c.question_id, an.question_id)
      where c.id = any(${ids(refs, 'comment')}::bigint[])
      union all
      select 'message', m.id, m.message_date_time, m.held_for, m.deleted_at is not null, m.sender_account_id,
        coalesce(f.name, 'PorpChat'), m.content, null,
        case when t.kind = 'porpchat' then 'porpchat' else t.id::text end
      from messages m join threads t on t.id = m.thread_id left join forums f on f.thread_id = t.id
      where m.id = any(${ids(refs, 'message')}::bigint[])`,
  );
  const authorIds = [...new Set(rows.flatMap((row) => (row.authorId === null ? [] : [Number(row.authorId)])))];
  const [authors, names, flagRows] = await Promise.all([
    queryRows<{ id: number; username: string; suspended: boolean }>(
      db,
      sql`select id, username, coalesce(suspended_until > now(), false) as suspended
        from accounts where id = any(${sql.param(authorIds)}::bigint[])`,
    ),
    queryRows<{ id: number; senderName: string }>(
      db,
      sql`select id, sender_name as "senderName" from messages where id = any(${ids(refs, 'message')}::bigint[])`,
    ),
    queryRows<{
      targetType: FlagTarget;
      targetId: number;
      reason: FlagReason;
      note: string | null;
      by: string;
      at: Date;
    }>(
      db,
      sql`select f.target_type as "targetType", f.target_id as "targetId", f.reason, f.note, a.username as by,
          f.created_at as at
        from flags f join accounts a on a.id = f.flagged_by
        where f.resolved_at is null and (
          (f.target_type = 'question' and f.target_id = any(${ids(refs, 'question')}::bigint[]))
          or (f.target_type = 'answer' and f.target_id = any(${ids(refs, 'answer')}::bigint[]))
          or (f.target_type = 'comment' and f.target_id = any(${ids(refs, 'comment')}::bigint[]))
          or (f.target_type = 'message' and f.target_id = any(${ids(refs, 'message')}::bigint[])))
        order by f.created_at, f.id`,
    ),
  ]);
  const accountOf = new Map(authors.map((row) => [Number(row.id), row]));
  const senderOf = new Map(names.map((row) => [Number(row.id), row.senderName]));
  const key = (type: string, id: number | string) => `${type}:${Number(id)}`;
  const flagsOf = new Map<string, ReviewRow['flags']>();
  for (const { targetType, targetId, ...flag } of flagRows) {
    const list = flagsOf.get(key(targetType, targetId)) ?? [];
    list.push(flag);
    flagsOf.set(key(targetType, targetId), list);
  }
  const byKey = new Map(
    rows.map((row) => {
      const account = row.authorId === null ? undefined : accountOf.get(Number(row.authorId));
      const flagsHere = flagsOf.get(key(row.targetType, row.targetId)) ?? [];
      const item: ReviewRow = {
        targetType: row.targetType,
        targetId: Number(row.targetId),
        // Waiting since its oldest open flag, or (waiting for approval) since it was posted.
        since: flagsHere[0]?.at ?? row.since,
        heldFor: row.heldFor,
        deleted: row.deleted,
        author: row.targetType === 'message' ? (senderOf.get(Number(row.targetId)) ?? '') : (account?.username ?? ''),
        suspendable: account !== undefined,
        authorSuspended: account?.suspended ?? false,
        context: row.context,
        text: row.text,
        questionId: row.questionId === null ? null : Number(row.questionId),
        threadId: row.threadId,
        flags: flagsHere,
      };
      return [key(row.targetType, row.targetId), item] as const;
    }),
  );
  return refs.flatMap((ref) => {
    const item = byKey.get(key(ref.targetType, ref.targetId));
    return item ? [item] : [];
  });
}

/** One entry of the moderation log, as its row reads. */
export interface LogRow {
  id: number;
  moderator: string;
  action: string;
  targetType: string;
  targetId: number;
  subject: string | null;
  reason: string | null;
  at: Date;
  questionId: number | null;
  threadId: string | null;
}

/** The log, newest first: a page of LIMITS.logPage entries older than `before` (the newest without it). */
export async function listModerationLog(db: Db, before: number | null): Promise<LogRow[]> {
  const older = before === null ? sql`` : sql`where l.id < ${before}`;
  return queryRows<LogRow>(
    db,
    sql`select l.id, m.username as moderator, l.action, l.target_type as "targetType", l.target_id as "targetId",
        -- A PorpChat message's account is never named (docs/product.md section 10).
        case when l.target_type = 'message' and exists (select 1 from messages mm join threads t on t.id = mm.thread_id
          where mm.id = l.target_id and t.kind = 'porpchat') then null else s.username end as subject,
        l.reason, l.created_at as at,
        case l.target_type
          when 'question' then l.target_id
          when 'answer' then (select question_id from answers where id = l.target_id)
          when 'comment' then (select coalesce(c.question_id, an.question_id) from comments c
            left join answers an on an.id = c.answer_id where c.id = l.target_id)
        end as "questionId",
        case when l.target_type = 'message' then (select case when t.kind = 'porpchat' then 'porpchat' else t.id::text end
          from messages mm join threads t on t.id = mm.thread_id where mm.id = l.target_id) end as "threadId"
      from moderation_log l join accounts m on m.id = l.moderator_id left join accounts s on s.id = l.subject_id
      ${older} order by l.id desc limit ${LIMITS.logPage}`,
  );
}

/**
 * How many of an account's questions and answers have been let through (not waiting for
 * approval, nor deleted by someone else), counted up to `atMost`: the post queue holds an
 * account's posts until it has this many (docs/product.md section 10).
 */
export async function countApprovedPosts(db: Db, accountId: number, atMost: number): Promise<number> {
  const [row] = await queryRows<{ approved: number }>(
    db,
    sql`select (select count(*) from (select 1 from questions where asked_by = ${accountId}
          and held_for is distinct from 'approval' and (deleted_by is null or deleted_by = ${accountId}) limit ${atMost}) q)
      + (select count(*) from (select 1 from answers where ans_by = ${accountId}
          and held_for is distinct from 'approval' and (deleted_by is null or deleted_by = ${accountId}) limit ${atMost}) a)
      as approved`,
  );
  return Number(row?.approved ?? 0);
}

/** An account's suspension, if it is suspended now: until when (null: for good) and why. */
export async function getSuspension(db: Db, accountId: number): Promise<{ until: Date | null; reason: string } | null> {
  const [row] = await queryRows<{ forGood: boolean; ms: number; reason: string | null }>(
    db,
    sql`select suspended_until = 'infinity' as "forGood", (extract(epoch from suspended_until) * 1000)::float8 as ms,
        suspension_reason as reason
      from accounts where id = ${accountId} and suspended_until > now()`,
  );
  if (!row) return null;
  return { until: row.forGood ? null : new Date(Number(row.ms)), reason: row.reason ?? '' };
}
