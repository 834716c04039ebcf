import { MESSAGES, type CloseReason, type Outcome } from '@porpoise/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { questions } from '../db/schema.ts';
import { badRequest, postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { recordModeration } from './moderation-log.ts';

export interface Closing {
  reason: CloseReason;
  /** The original, for a duplicate; null otherwise. */
  duplicateOf: number | null;
}

/**
 * Closes a question with a reason (docs/product.md section 9), or reopens it (`closing` null):
 * a closed question keeps its answers and takes no new ones. Closing a closed question
 * again changes its reason; reopening an open one changes nothing. A duplicate names an
 * original that shows and is not itself. The question's row is locked. The caller has
 * checked that the actor may (moderators).
 */
export async function setClosed(
  db: Db,
  actor: Actor,
  questionId: number,
  closing: Closing | null,
): Promise<Outcome<void>> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({ closedAt: questions.closedAt, askedBy: questions.askedBy })
      .from(questions)
      .where(and(eq(questions.id, questionId), isNull(questions.deletedAt)))
      .for('update');
    if (!question) throw postNotFound('question');
    // Only moderators close and reopen: each is logged (docs/product.md section 10).
    const log = (action: 'close' | 'reopen', reason: string | null) =>
      recordModeration(tx, actor, {
        action,
        targetType: 'question',
        targetId: questionId,
        subjectId: question.askedBy,
        reason,
      });
    if (closing === null) {
      // Reopening an open question changes nothing: nothing to tell.
      if (question.closedAt === null) return { result: undefined, events: [] };
      await tx
        .update(questions)
        .set({ closedAt: null, closedBy: null, closeReason: null, duplicateOf: null })
        .where(eq(questions.id, questionId));
      await log('reopen', null);
      return { result: undefined, events: [{ type: 'questionClosed', questionId }] };
    }
    if (closing.duplicateOf !== null) {
      if (closing.duplicateOf === questionId) throw badRequest(MESSAGES.duplicateOfItself);
      const [original] = await tx
        .select({ id: questions.id })
        .from(questions)
        .where(and(eq(questions.id, closing.duplicateOf), isNull(questions.deletedAt)));
      if (!original) throw badRequest(MESSAGES.duplicateNotFound);
    }
    await tx
      .update(questions)
      .set({
        closedAt: sql`now()`,
        closedBy: actor.id,
        closeReason: closing.reason,
        duplicateOf: closing.duplicateOf,
      })
      .where(eq(questions.id, questionId));
    await log('close', closing.duplicateOf === null ? closing.reason : `duplicate of ${closing.duplicateOf}`);
    return { result: undefined, events: [{ type: 'questionClosed', questionId }] };
  });
}
