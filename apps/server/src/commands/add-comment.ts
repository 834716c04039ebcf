import type { CommentTarget, Outcome } from '@porpoise/core';
import { mentionedUsernames } from '@porpoise/core/markdown';
import { and, eq, isNull } from 'drizzle-orm';
import { inTransaction, type Db } from '../db/client.ts';
import { answers, comments, questions } from '../db/schema.ts';
import { postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';

/**
 * Adds a comment to a question or an answer; returns it with the question it belongs to.
 * A deleted post (or an answer of a deleted question) takes none: 404, as if not there.
 */
export async function addComment(db: Db, actor: Actor, target: CommentTarget, parentId: number, text: string) {
  return inTransaction(db, async (tx) => {
    let questionId: number | undefined;
    if (target === 'question') {
      const [question] = await tx
        .select({ id: questions.id })
        .from(questions)
        .where(and(eq(questions.id, parentId), isNull(questions.deletedAt)))
        // Shared: a delete holding the row is waited for, and the row checked again.
        .for('share');
      questionId = question?.id;
    } else {
      const [answer] = await tx
        .select({ questionId: answers.questionId })
        .from(answers)
        .innerJoin(questions, eq(questions.id, answers.questionId))
        .where(and(eq(answers.id, parentId), isNull(answers.deletedAt), isNull(questions.deletedAt)))
        .for('share');
      questionId = answer?.questionId;
    }
    if (questionId === undefined) throw postNotFound(target);
    const [comment] = await tx
      .insert(comments)
      .values({
        text,
        commentBy: actor.id,
        questionId: target === 'question' ? parentId : null,
        answerId: target === 'answer' ? parentId : null,
      })
      .returning();
    if (!comment) throw new Error('insert returned no comment');
    return {
      result: { comment, questionId },
      events: [
        {
          type: 'commentAdded',
          questionId,
          commentId: comment.id,
          target,
          parentId,
          mentions: mentionedUsernames(text, 'inline'),
        },
      ],
    } satisfies Outcome<{ comment: typeof comment; questionId: number }>;
  });
}
