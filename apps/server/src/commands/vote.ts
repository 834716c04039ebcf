import type { DomainEvent, Outcome, VoteDirection } from '@porpoise/core';
import { and, eq, sql } from 'drizzle-orm';
import { inTransaction, queryPrepared, type Db, type Tx } from '../db/client.ts';
import { answers, answerVotes, questions, votes } from '../db/schema.ts';
import { postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';

/**
 * What votes are cast on: the votes table and its column naming the post, the post's table
 * (whose counters always equal its stored votes), how the post's row is locked (giving its
 * question's id; 404 once deleted) and the event a toggle makes.
 */
interface Ballot {
  votes: typeof votes | typeof answerVotes;
  post: typeof votes.questionId | typeof answerVotes.answerId;
  counted: typeof questions | typeof answers;
  countedId: typeof questions.id | typeof answers.id;
  /** The vote's row. */
  row(postId: number, accountId: number, value: 1 | -1): typeof votes.$inferInsert | typeof answerVotes.$inferInsert;
  lock(tx: Tx, postId: number): Promise<number>;
  changed(questionId: number, postId: number, voterId: number): DomainEvent;
}

/**
 * The post's row is locked for update, and its author's account row for a non-key update:
 * votes on one author's posts take turns, so the reputation the event processor writes in the
 * same transaction (events/reputation.ts) reads the day's upvotes with every earlier one
 * counted, with no statement of its own to lock them.
 */
const QUESTION_BALLOT: Ballot = {
  votes,
  post: votes.questionId,
  counted: questions,
  countedId: questions.id,
  row: (questionId, accountId, value) => ({ questionId, accountId, value }),
  async lock(tx, questionId) {
    const [question] = await queryPrepared<{ id: number }>(
      tx,
      sql`select q.id from questions q join accounts a on a.id = q.asked_by
        where q.id = ${questionId} and q.deleted_at is null
        for update of q for no key update of a`,
    );
    if (!question) throw postNotFound('question');
    return questionId;
  },
  changed: (questionId, _questionId, voterId) => ({ type: 'voteChanged', questionId, voterId }),
};

const ANSWER_BALLOT: Ballot = {
  votes: answerVotes,
  post: answerVotes.answerId,
  counted: answers,
  countedId: answers.id,
  row: (answerId, accountId, value) => ({ answerId, accountId, value }),
  async lock(tx, answerId) {
    const [answer] = await queryPrepared<{ questionId: number }>(
      tx,
      sql`select x.question_id as "questionId" from answers x join questions q on q.id = x.question_id
        join accounts a on a.id = x.ans_by
        where x.id = ${answerId} and x.deleted_at is null and q.deleted_at is null
        for update of x for no key update of a`,
    );
    // A deleted answer, or an answer to a deleted question, takes no votes.
    if (!answer) throw postNotFound('answer');
    return Number(answer.questionId);
  },
  changed: (questionId, answerId, voterId) => ({ type: 'answerVoteChanged', questionId, answerId, voterId }),
};

/**
 * Toggles the actor's vote on a post (docs/product.md section 7): voting the same way again
 * takes the vote back, voting the other way moves it. The post's row is locked, so toggles
 * on one post apply one after another, each seeing the one before, and its counters always
 * equal the stored votes: an even number of identical requests leaves no vote, an odd
 * number one, however they interleave.
 */
async function toggle(
  db: Db,
  ballot: Ballot,
  actor: Actor,
  postId: number,
  direction: VoteDirection,
): Promise<Outcome<{ questionId: number }>> {
  // Stored as +1 or -1.
  const value = direction === 'up' ? 1 : -1;
  return inTransaction(db, async (tx) => {
    const questionId = await ballot.lock(tx, postId);
    const mine = and(eq(ballot.post, postId), eq(ballot.votes.accountId, actor.id));
    const [existing] = await tx.select({ value: ballot.votes.value }).from(ballot.votes).where(mine);
    if (existing?.value === value) {
      await tx.delete(ballot.votes).where(mine);
    } else if (existing) {
      await tx.update(ballot.votes).set({ value, votedAt: new Date() }).where(mine);
    } else {
      await tx.insert(ballot.votes).values(ballot.row(postId, actor.id, value));
    }
    const count = (sign: 1 | -1) =>
      sql`(select count(*) from ${ballot.votes} where ${ballot.post} = ${postId} and ${ballot.votes.value} = ${sql.raw(String(sign))})`;
    await tx
      .update(ballot.counted)
      .set({ upCount: count(1), downCount: count(-1) })
      .where(eq(ballot.countedId, postId));
    return { result: { questionId }, events: [ballot.changed(questionId, postId, actor.id)] };
  });
}

/** Toggles the actor's vote on a question (toggle). */
export async function toggleVote(
  db: Db,
  actor: Actor,
  questionId: number,
  direction: VoteDirection,
): Promise<Outcome<void>> {
  const { events } = await toggle(db, QUESTION_BALLOT, actor, questionId, direction);
  return { result: undefined, events };
}

/** Toggles the actor's vote on an answer exactly as on a question (toggle). */
export async function toggleAnswerVote(
  db: Db,
  actor: Actor,
  answerId: number,
  direction: VoteDirection,
): Promise<Outcome<{ questionId: number }>> {
  return toggle(db, ANSWER_BALLOT, actor, answerId, direction);
}
