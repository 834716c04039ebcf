import type { Outcome, VoteDirection } from '@porpoise/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { answers, answerVotes, questions, votes } from '../db/schema.ts';
import { notFound } from '../lib/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { lockQuestion } from './lock-question.ts';

/**
 * Toggles the actor's vote (docs/product.md section 7): voting the same way again takes the
 * vote back, voting the other way moves it. The question's row is locked, so toggles on
 * one question apply one after another, each seeing the one before, and its counters
 * always equal the stored votes: an even number of identical requests leaves no vote, an
 * odd number one, however they interleave.
 */
export async function toggleVote(
  db: Db,
  actor: Actor,
  questionId: number,
  direction: VoteDirection,
): Promise<Outcome<void>> {
  // Stored as +1 or -1.
  const value = direction === 'up' ? 1 : -1;
  return db.transaction(async (tx) => {
    await lockQuestion(tx, questionId);
    const mine = and(eq(votes.questionId, questionId), eq(votes.accountId, actor.id));
    const [existing] = await tx.select({ value: votes.value }).from(votes).where(mine);
    if (existing?.value === value) {
      await tx.delete(votes).where(mine);
    } else if (existing) {
      await tx.update(votes).set({ value, votedAt: new Date() }).where(mine);
    } else {
      await tx.insert(votes).values({ questionId, accountId: actor.id, value });
    }
    await tx
      .update(questions)
      .set({
        upCount: sql`(select count(*) from votes where question_id = ${questionId} and value = 1)`,
        downCount: sql`(select count(*) from votes where question_id = ${questionId} and value = -1)`,
      })
      .where(eq(questions.id, questionId));
    return { result: undefined, events: [{ type: 'voteChanged', questionId }] };
  });
}

/**
 * Toggles the actor's vote on an answer exactly as on a question: the answer's row is
 * locked, so toggles on one answer apply one after another and its counters always equal
 * its stored votes.
 */
export async function toggleAnswerVote(
  db: Db,
  actor: Actor,
  answerId: number,
  direction: VoteDirection,
): Promise<Outcome<{ questionId: number }>> {
  const value = direction === 'up' ? 1 : -1;
  return db.transaction(async (tx) => {
    const [answer] = await tx
      .select({ questionId: answers.questionId })
      .from(answers)
      .innerJoin(questions, eq(questions.id, answers.questionId))
      .where(and(eq(answers.id, answerId), isNull(answers.deletedAt), isNull(questions.deletedAt)))
      .for('update', { of: answers });
    // A deleted answer, or an answer to a deleted question, takes no votes.
    if (!answer) throw notFound('Answer not found');
    const mine = and(eq(answerVotes.answerId, answerId), eq(answerVotes.accountId, actor.id));
    const [existing] = await tx.select({ value: answerVotes.value }).from(answerVotes).where(mine);
    if (existing?.value === value) {
      await tx.delete(answerVotes).where(mine);
    } else if (existing) {
      await tx.update(answerVotes).set({ value, votedAt: new Date() }).where(mine);
    } else {
      await tx.insert(answerVotes).values({ answerId, accountId: actor.id, value });
    }
    await tx
      .update(answers)
      .set({
        upCount: sql`(select count(*) from answer_votes where answer_id = ${answerId} and value = 1)`,
        downCount: sql`(select count(*) from answer_votes where answer_id = ${answerId} and value = -1)`,
      })
      .where(eq(answers.id, answerId));
    const questionId = Number(answer.questionId);
    return { result: { questionId }, events: [{ type: 'answerVoteChanged', questionId, answerId }] };
  });
}
