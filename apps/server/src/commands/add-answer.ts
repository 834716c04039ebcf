import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { answers, questionCounters, questions } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';
import { lockQuestion } from './lock-question.ts';

/** Adds an answer and moves the question's answer count and last activity, in one transaction. */
export async function addAnswer(db: Db, actor: Actor, questionId: number, text: string) {
  return db.transaction(async (tx) => {
    await lockQuestion(tx, questionId);
    const [answer] = await tx.insert(answers).values({ questionId, text, ansBy: actor.id }).returning();
    if (!answer) throw new Error('insert returned no answer');
    const [counted] = await tx
      .update(questions)
      .set({ answerCount: sql`${questions.answerCount} + 1`, lastActivityAt: answer.ansDateTime })
      .where(eq(questions.id, questionId))
      .returning({ answerCount: questions.answerCount });
    // Its first answer takes the question out of the unanswered count.
    if (counted?.answerCount === 1) {
      await tx.update(questionCounters).set({ unanswered: sql`${questionCounters.unanswered} - 1` });
    }
    return answer;
  });
}
