import type { DomainEvent, UnreadNotificationsChanged } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { normalised, notificationRowsFrom, type NotificationRow } from '../queries/notifications.ts';

/**
 * Notifications and follows as consequences of writes (docs/product.md section 11), decided
 * here and written by the event processor inside the transaction of the write that caused
 * them (events/processor.ts `write`): an answer, a comment, an accept or a mention commits
 * with its notifications or not at all.
 *
 * Each statement picks its recipients with the kinds' precedence (answer, comment or
 * accept before mention, mention before followedAnswer: `distinct on` the account, by
 * rank), never the actor, and inserts one row each; a row about a post that does not show
 * (held for approval, or deleted) is inserted hidden. The recipients' unread counts move in
 * the same statement (kept, never counted).
 */

/** A notification just written, as listed, for its delivery once the write has committed. */
export interface Written extends NotificationRow {
  hidden: boolean;
}

/** The events whose notifications are written in the write's transaction (processor.ts checks none skips it). */
export const NOTIFYING_EVENTS = new Set<DomainEvent['type']>([
  'questionAsked',
  'answerAdded',
  'commentAdded',
  'messagePosted',
]);

const names = (mentions: readonly string[]) => sql`${sql.param(mentions.map((name) => name.toLowerCase()))}::text[]`;

/** Accounts named by these mentions (existing ones: an unknown name is text). */
const mentioned = (mentions: readonly string[], rank: number) =>
  sql`select id as account_id, ${rank} as rank, 'mention' as kind from accounts
    where lower(username) = any(${names(mentions)})`;

/**
 * Inserts the chosen recipients' rows (`targets`: account_id, rank, kind) and counts the
 * shown ones unread. `post` is one row: actor, question_id, answer_id, comment_id,
 * thread_id, message_id, hidden.
 */
const notify = (post: SQL, targets: SQL, extra: SQL = sql``) => sql`
  with post as (${post}), targets as (${targets})${extra},
  chosen as (
    select distinct on (t.account_id) t.account_id, t.kind from targets t, post p
    where t.account_id <> p.actor
    order by t.account_id, t.rank
  ), inserted as (
    insert into notifications (account_id, kind, actor_id, question_id, answer_id, comment_id, thread_id, message_id,
      hidden, created_at)
    select c.account_id, c.kind, p.actor, p.question_id, p.answer_id, p.comment_id, p.thread_id, p.message_id,
      p.hidden, clock_timestamp()
    from chosen c, post p
    returning *
  ), counted as (
    update accounts a set unread_notifications = a.unread_notifications + 1
    from inserted i where a.id = i.account_id and not i.hidden
  )
  ${notificationRowsFrom(sql`inserted`)}`;

/** The post's author follows its question (asking and answering follow it), in the notifying statement. */
const authorFollows = sql`, followed as (
  insert into question_follows (question_id, account_id) select question_id, actor from post on conflict do nothing)`;

/** The statement an event's notifications take, or null when it notifies nobody. */
function statementFor(event: DomainEvent): SQL | null {
  switch (event.type) {
    case 'questionAsked': {
      // The asker follows it; those it mentions hear of it.
      const post = sql`select q.asked_by as actor, q.id as question_id, null::bigint as answer_id,
        null::bigint as comment_id, null::bigint as thread_id, null::bigint as message_id, q.deleted_at is not null as hidden
        from questions q where q.id = ${event.questionId}`;
      return notify(
        post,
        event.mentions.length > 0
          ? mentioned(event.mentions, 2)
          : sql`select null::bigint as account_id, 0 as rank, '' as kind where false`,
        authorFollows,
      );
    }
    case 'answerAdded': {
      // The answerer follows the question; its asker, those it mentions and its followers hear of it.
      const post = sql`select a.ans_by as actor, q.id as question_id, a.id as answer_id,
        null::bigint as comment_id, null::bigint as thread_id, null::bigint as message_id,
        a.deleted_at is not null or q.deleted_at is not null as hidden
        from answers a join questions q on q.id = a.question_id where a.id = ${event.answerId}`;
      const targets = sql`select q.asked_by as account_id, 1 as rank, 'answer' as kind from questions q where q.id = ${event.questionId}
        ${event.mentions.length > 0 ? sql`union all ${mentioned(event.mentions, 2)}` : sql``}
        union all select f.account_id, 3 as rank, 'followedAnswer' as kind from question_follows f where f.question_id = ${event.questionId}`;
      return notify(post, targets, authorFollows);
    }
    case 'commentAdded': {
      // The commented post's author and those it mentions.
      const onAnswer = event.target === 'answer';
      const post = sql`select c.comment_by as actor, q.id as question_id, a.id as answer_id, c.id as comment_id,
        null::bigint as thread_id, null::bigint as message_id,
        c.deleted_at is not null or q.deleted_at is not null or coalesce(a.deleted_at is not null, false) as hidden
        from comments c join questions q on q.id = ${event.questionId}
        left join answers a on a.id = c.answer_id where c.id = ${event.commentId}`;
      const author = onAnswer
        ? sql`select ans_by as account_id, 1 as rank, 'comment' as kind from answers where id = ${event.parentId}`
        : sql`select asked_by as account_id, 1 as rank, 'comment' as kind from questions where id = ${event.parentId}`;
      const targets = event.mentions.length > 0 ? sql`${author} union all ${mentioned(event.mentions, 2)}` : author;
      return notify(post, targets);
    }
    case 'messagePosted': {
      // A forum message notifies those it mentions; a direct one, only its other participant
      // (nobody hears of a thread they may not read); PorpChat, nobody.
      if (event.mentions.length === 0) return null;
      const post = sql`select m.sender_account_id as actor, null::bigint as question_id, null::bigint as answer_id,
        null::bigint as comment_id, t.id as thread_id, m.id as message_id, m.deleted_at is not null as hidden
        from messages m join threads t on t.id = m.thread_id
        where m.id = ${event.messageId} and m.sender_account_id is not null and t.kind in ('forum', 'direct')`;
      const targets = sql`select a.id as account_id, 1 as rank, 'mention' as kind from accounts a, threads t
        where t.id = ${event.threadId} and lower(a.username) = any(${names(event.mentions)})
          and (t.kind = 'forum' or exists (select 1 from thread_participants p where p.thread_id = t.id and p.account_id = a.id))`;
      return notify(post, targets);
    }
    case 'answerAccepted': {
      // Its author, once per answer (taking the mark back and giving it again tells nobody twice).
      if (event.acceptedAnswerId === null) return null;
      const post = sql`select q.asked_by as actor, q.id as question_id, a.id as answer_id,
        null::bigint as comment_id, null::bigint as thread_id, null::bigint as message_id,
        a.deleted_at is not null or q.deleted_at is not null as hidden
        from answers a join questions q on q.id = a.question_id where a.id = ${event.acceptedAnswerId}`;
      const targets = sql`select a.ans_by as account_id, 1 as rank, 'accept' as kind from answers a
        where a.id = ${event.acceptedAnswerId} and not exists (
          select 1 from notifications n where n.question_id = ${event.questionId} and n.kind = 'accept'
            and n.answer_id = a.id and n.account_id = a.ans_by)`;
      return notify(post, targets);
    }
    default:
      return null;
  }
}

/** Writes the notifications of a write's events, inside its transaction (`tx`). */
export async function writeNotifications(tx: Db, events: readonly DomainEvent[]): Promise<Written[]> {
  const written: Written[] = [];
  for (const event of events) {
    const statement = statementFor(event);
    if (statement === null) continue;
    written.push(...normalised(await queryPrepared<Written>(tx, statement)));
  }
  return written;
}

/**
 * After a post was deleted, held or shown again: its notifications (and those of the posts
 * under it) hide or show with it, and their accounts' unread counts move (answered as events,
 * for their bells). Computed again from the posts as they are now, so running it twice, or
 * late, changes nothing more.
 */
export async function syncNotificationVisibility(db: Db, event: DomainEvent): Promise<UnreadNotificationsChanged[]> {
  let scope: SQL;
  if (event.type === 'questionDeleted' || event.type === 'answerDeleted' || event.type === 'commentDeleted') {
    scope = sql`n.question_id = ${event.questionId}`;
  } else if (event.type === 'messageDeleted') {
    scope = sql`n.message_id = ${event.messageId}`;
  } else {
    return [];
  }
  const moved = await queryPrepared<{ accountId: number; count: number }>(
    db,
    sql`with now_hidden as (
      select n.id, coalesce(q.deleted_at is not null, false) or coalesce(a.deleted_at is not null, false)
        or coalesce(c.deleted_at is not null, false) or coalesce(m.deleted_at is not null, false) as hidden
      from notifications n
      left join questions q on q.id = n.question_id
      left join answers a on a.id = n.answer_id
      left join comments c on c.id = n.comment_id
      left join messages m on m.id = n.message_id
      where ${scope}
    ), changed as (
      update notifications n set hidden = h.hidden from now_hidden h
      where n.id = h.id and n.hidden <> h.hidden
      returning n.account_id, n.hidden, n.read_at
    ), moved as (
      select account_id, sum(case when hidden then -1 else 1 end)::int as delta
      from changed where read_at is null group by account_id
    )
    update accounts a set unread_notifications = a.unread_notifications + m.delta
    from moved m where a.id = m.account_id and m.delta <> 0
    returning a.id as "accountId", a.unread_notifications as count`,
  );
  return moved.map(({ accountId, count }) => ({
    type: 'unreadNotificationsChanged',
    accountId: Number(accountId),
    count: Number(count),
  }));
}
