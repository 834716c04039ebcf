import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions, votes } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';
import { lockQuestion } from './lock-question.ts';

export type VoteDirection = 1 | -1;

/** The same vote again within this window is a duplicate (a double click, a retry), not a toggle. */
const DUPLICATE_WINDOW_MS = 2_000;

/**
 * Toggles the actor's vote (product.md section 3): voting the same way again removes the
 * vote, voting the other way moves it. The question row is locked, so parallel votes on one
 * question apply one after another and its counters always equal the stored votes; a
 * repeat of the same vote within two seconds changes nothing, so 50 identical requests in
 * parallel leave exactly one vote. False when nothing changed (such a repeat): then there is
 * nothing to invalidate or announce.
 */
export async function toggleVote(db: Db, actor: Actor, questionId: number, direction: VoteDirection): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockQuestion(tx, questionId);
    const mine = and(eq(votes.questionId, questionId), eq(votes.accountId, actor.id));
    const [existing] = await tx.select({ value: votes.value, votedAt: votes.votedAt }).from(votes).where(mine);
    if (existing?.value === direction && Date.now() - existing.votedAt.getTime() < DUPLICATE_WINDOW_MS) return false;
    if (existing?.value === direction) {
      await tx.delete(votes).where(mine);
    } else if (existing) {
      await tx.update(votes).set({ value: direction, votedAt: new Date() }).where(mine);
    } else {
      await tx.insert(votes).values({ questionId, accountId: actor.id, value: direction });
    }
    await tx
      .update(questions)
      .set({
        upCount: sql`(select count(*) from votes where question_id = ${questionId} and value = 1)`,
        downCount: sql`(select count(*) from votes where question_id = ${questionId} and value = -1)`,
      })
      .where(eq(questions.id, questionId));
    return true;
  });
}
