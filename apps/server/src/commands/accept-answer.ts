import { MESSAGES, type Outcome } from '@porpoise/core';
import { and, eq, isNull } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client.ts';
import { answers, questions } from '../db/schema.ts';
import { badRequest } from '../http/http-error.ts';

/**
 * Accepts an answer to the question (docs/product.md section 7), or takes the mark back when it
 * is the accepted one already; accepting another moves it. The question's row is locked,
 * so two presses at once apply one after another. The caller has checked that the actor
 * may accept (policies: the asker only).
 */
export async function toggleAcceptedAnswer(
  db: Db,
  questionId: number,
  answerId: number,
): Promise<Outcome<{ acceptedAnswerId: number | null }>> {
  return inTransaction(db, async (tx) => {
    const [question] = await tx
      .select({ accepted: questions.acceptedAnswerId })
      .from(questions)
      .where(and(eq(questions.id, questionId), isNull(questions.deletedAt)))
      .for('update');
    // A deleted answer cannot be accepted.
    const [answer] = await tx
      .select({ id: answers.id })
      .from(answers)
      .where(and(eq(answers.id, answerId), eq(answers.questionId, questionId), isNull(answers.deletedAt)));
    if (!question || !answer) throw badRequest(MESSAGES.answerNotOfQuestion);
    const acceptedAnswerId = question.accepted === answerId ? null : answerId;
    await tx.update(questions).set({ acceptedAnswerId }).where(eq(questions.id, questionId));
    return {
      result: { acceptedAnswerId },
      events: [{ type: 'answerAccepted', questionId, acceptedAnswerId }],
    };
  });
}
