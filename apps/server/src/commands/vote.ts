import type { Outcome, VoteDirection } from '@porpoise/core';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions, votes } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';
import { lockQuestion } from './lock-question.ts';

/**
 * Toggles the actor's vote (product.md section 7): voting the same way again takes the
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
