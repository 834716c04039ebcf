import { LIMITS, type DomainEvent } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';

/**
 * Reputation as a consequence of writes (docs/product.md section 13), decided here and written
 * by the event processor inside the transaction of the write that caused it (processor.ts
 * `write`): a vote, an accept, a delete, an undelete, a hide or an adjustment commits with its
 * ledger rows or not at all.
 *
 * Each statement brings the ledger in line with the post as it now is, rather than applying
 * a difference: a vote's rows are those of the voter's current vote, an accept's those of the
 * question's current accepted answer, a post's rows are hidden while it is deleted or held.
 * Running one twice changes nothing more. The accounts' sums move in the same statement by
 * what changed among the shown rows.
 */

/** The events whose ledger rows are written in the write's transaction (processor.ts checks none skips it). */
export const LEDGER_EVENTS = new Set<DomainEvent['type']>([
  'voteChanged',
  'answerVoteChanged',
  'answerAccepted',
  'questionDeleted',
  'answerDeleted',
  'reputationAdjusted',
]);

const UPVOTE_REASONS = sql`('questionUpvoted', 'answerUpvoted')`;

/**
 * Moves the accounts' sums by the shown rows `inserted` added and `removed` took (CTEs of
 * account_id, delta, hidden). The accounts' rows are locked in id order first, so two writes
 * moving the same accounts wait for each other rather than deadlock (a write that still meets
 * another in opposite order, having locked an author before, runs again: processor.ts).
 */
const moveSums = sql`, moved as (
    select account_id, sum(delta)::bigint as delta from (
      select account_id, delta from inserted where not hidden
      union all select account_id, -delta from removed where not hidden
    ) rows group by account_id having sum(delta) <> 0
  ), locked as (
    select a.id, m.delta from accounts a join moved m on m.account_id = a.id order by a.id for no key update of a
  )
  update accounts a set reputation_sum = a.reputation_sum + l.delta
  from locked l where a.id = l.id`;

/**
 * A vote's rows follow the voter's vote as it now is: an upvote gives its author +10 (0 past
 * the day's cap), a downvote -2, and a downvote on an answer costs the voter 1; a vote on
 * one's own post gives nothing. `post` is one row: question_id, answer_id, author, hidden.
 */
function voteStatement(post: SQL, vote: SQL, voterId: number, onAnswer: boolean): SQL {
  const [up, down] = onAnswer ? ['answerUpvoted', 'answerDownvoted'] : ['questionUpvoted', 'questionDownvoted'];
  const voterRow = onAnswer
    ? sql`union all select ${voterId}::bigint, -1, 'downvotedAnswer' from post p, vote v
        where v.value = -1 and p.author <> ${voterId}`
    : sql``;
  const reasons = onAnswer
    ? sql`('answerUpvoted', 'answerDownvoted', 'downvotedAnswer')`
    : sql`('questionUpvoted', 'questionDownvoted')`;
  return sql`with post as (${post}), vote as (${vote}),
    removed as (
      delete from reputation_events r using post p
      where r.question_id = p.question_id and r.actor_id = ${voterId} and r.reason in ${reasons}
        and r.answer_id is not distinct from p.answer_id
      returning r.account_id, r.delta, r.hidden
    ), earned as (
      select coalesce(sum(r.delta), 0) as today from reputation_events r, post p
      where r.account_id = p.author and r.reason in ${UPVOTE_REASONS} and r.created_at >= date_trunc('day', now(), 'UTC')
    ), wanted (account_id, delta, reason) as (
      select p.author, least(${LIMITS.upvoteReputation}, greatest(0, ${LIMITS.upvoteReputationPerDay} - e.today))::int, ${up}
        from post p, vote v, earned e where v.value = 1 and p.author <> ${voterId}
      union all select p.author, -2, ${down} from post p, vote v where v.value = -1 and p.author <> ${voterId}
      ${voterRow}
    ), inserted as (
      insert into reputation_events (account_id, delta, reason, question_id, answer_id, actor_id, hidden)
      select w.account_id, w.delta, w.reason, p.question_id, p.answer_id, ${voterId}, p.hidden from wanted w, post p
      returning account_id, delta, hidden
    )${moveSums}`;
}

/**
 * The statements an event's ledger rows take. A vote's needs no lock of its own: the vote
 * command locked the author's account row with the post (commands/vote.ts), so two upvotes
 * at once read each other's rows for the day's cap.
 */
function statementsFor(event: DomainEvent): SQL[] {
  switch (event.type) {
    case 'voteChanged': {
      const post = sql`select q.id as question_id, null::bigint as answer_id, q.asked_by as author,
        q.deleted_at is not null as hidden from questions q where q.id = ${event.questionId}`;
      const vote = sql`select value from votes where question_id = ${event.questionId} and account_id = ${event.voterId}`;
      return [voteStatement(post, vote, event.voterId, false)];
    }
    case 'answerVoteChanged': {
      const post = sql`select q.id as question_id, x.id as answer_id, x.ans_by as author,
        x.deleted_at is not null or q.deleted_at is not null as hidden
        from answers x join questions q on q.id = x.question_id where x.id = ${event.answerId}`;
      const vote = sql`select value from answer_votes where answer_id = ${event.answerId} and account_id = ${event.voterId}`;
      return [voteStatement(post, vote, event.voterId, true)];
    }
    case 'answerAccepted':
      return [acceptStatement(event.questionId)];
    case 'questionDeleted':
    case 'answerDeleted':
      // Hiding an accepted answer takes its accept back (delete-post.ts says so with an
      // answerAccepted event too); the accept's rows follow the question either way.
      return [visibilityStatement(event.questionId), acceptStatement(event.questionId)];
    case 'reputationAdjusted':
      return [
        sql`with inserted as (
          insert into reputation_events (account_id, delta, reason, actor_id, note)
          values (${event.accountId}, ${event.delta}, 'adjustment', ${event.adminId}, ${event.note})
          returning account_id, delta, hidden
        ), removed as (select account_id, delta, hidden from inserted where false)${moveSums}`,
      ];
    default:
      return [];
  }
}

/**
 * An accept's rows follow the question's accepted answer as it now is: +15 to the answer's
 * author and +2 to the asker, unless the asker accepted their own answer. A kept accept keeps
 * its rows (and their time); a moved or taken back one loses them.
 */
function acceptStatement(questionId: number): SQL {
  return sql`with accepted as (
      select q.id as question_id, x.id as answer_id, x.ans_by as author, q.asked_by as asker,
        x.deleted_at is not null or q.deleted_at is not null as hidden
      from questions q join answers x on x.id = q.accepted_answer_id
      where q.id = ${questionId} and x.ans_by <> q.asked_by
    ), removed as (
      delete from reputation_events r
      where r.question_id = ${questionId} and r.reason in ('answerAccepted', 'acceptedAnswer')
        and r.answer_id is distinct from (select answer_id from accepted)
      returning r.account_id, r.delta, r.hidden
    ), fresh as (
      select * from accepted a where not exists (
        select 1 from reputation_events r
        where r.question_id = a.question_id and r.reason = 'answerAccepted' and r.answer_id = a.answer_id)
    ), inserted as (
      insert into reputation_events (account_id, delta, reason, question_id, answer_id, actor_id, hidden)
      select author, 15, 'answerAccepted', question_id, answer_id, asker, hidden from fresh
      union all select asker, 2, 'acceptedAnswer', question_id, answer_id, asker, hidden from fresh
      returning account_id, delta, hidden
    )${moveSums}`;
}

/** A question's rows (its answers' too) hide while their post is deleted or held, and show again after. */
function visibilityStatement(questionId: number): SQL {
  return sql`with now_hidden as (
      select r.id, q.deleted_at is not null or coalesce(x.deleted_at is not null, false) as hidden
      from reputation_events r join questions q on q.id = r.question_id
      left join answers x on x.id = r.answer_id
      where r.question_id = ${questionId}
    ), changed as (
      update reputation_events r set hidden = h.hidden from now_hidden h
      where r.id = h.id and r.hidden <> h.hidden
      returning r.account_id, r.delta, r.hidden
    ), inserted as (
      select account_id, delta, false as hidden from changed where not hidden
    ), removed as (
      select account_id, delta, false as hidden from changed where hidden
    )${moveSums}`;
}

/** Writes the ledger rows of a write's events, inside its transaction (`tx`). */
export async function writeReputation(tx: Db, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) {
    for (const statement of statementsFor(event)) await queryPrepared(tx, statement);
  }
}
