import { MESSAGES, type DomainEvent, type Outcome } from '@porpoise/core';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { answers, comments, questionCounters, questions, questionTags } from '../db/schema.ts';
import { badRequest, notFound } from '../lib/http-error.ts';
import type { Actor } from '../policies/actor.ts';

/** Raw SQL's rows inside a transaction (both drivers answer with `{ rows }`). */
async function rowsIn<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result: unknown = await tx.execute(query);
  return (result as { rows: T[] }).rows;
}

/** A post's state after a delete or an undelete. */
export interface Deletion {
  deleted: boolean;
}

/** When, and by whom, as the columns take it: both null on undeleting. */
const deletion = (actor: Actor, deleted: boolean) =>
  deleted ? { deletedAt: sql`now()`, deletedBy: actor.id } : { deletedAt: null, deletedBy: null };

/** A question's row, locked for the rest of the transaction; 404 when there is none. */
async function lockedQuestion(tx: Tx, questionId: number) {
  const [question] = await tx
    .select({
      deletedAt: questions.deletedAt,
      answerCount: questions.answerCount,
      acceptedAnswerId: questions.acceptedAnswerId,
    })
    .from(questions)
    .where(eq(questions.id, questionId))
    .for('update');
  if (!question) throw notFound('Question not found');
  return question;
}

/** A question's tag names, lower case (the lists it is on). */
async function tagNamesOf(tx: Tx, questionId: number): Promise<string[]> {
  const rows = await rowsIn<{ name: string }>(
    tx,
    sql`select t.name from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = ${questionId}`,
  );
  return rows.map((row) => row.name.toLowerCase());
}

/**
 * Deletes a question (product.md section 9) or undeletes it: it leaves (or rejoins) every
 * list, search, total and tag count at once. Its author deletes it only while it has no
 * answers (`evenAnswered`: a moderator, any time). The question's row is locked; deleting
 * a deleted question, or undeleting a shown one, changes nothing. The caller has checked
 * that the actor may.
 */
export async function setQuestionDeleted(
  db: Db,
  actor: Actor,
  questionId: number,
  deleted: boolean,
  evenAnswered: boolean,
): Promise<Outcome<Deletion>> {
  return db.transaction(async (tx) => {
    const question = await lockedQuestion(tx, questionId);
    if ((question.deletedAt !== null) === deleted) return { result: { deleted }, events: [] };
    if (deleted && question.answerCount > 0 && !evenAnswered) throw badRequest(MESSAGES.questionHasAnswers);
    const step = deleted ? -1 : 1;
    await tx.update(questions).set(deletion(actor, deleted)).where(eq(questions.id, questionId));
    await tx.update(questionTags).set({ deleted }).where(eq(questionTags.questionId, questionId));
    // Its tags' counts, rows locked in id order as asking does (no deadlock with an asker).
    await tx.execute(sql`
      update tags set question_count = tags.question_count + ${step}
      from (select id from tags where id in (select tag_id from question_tags where question_id = ${questionId})
        order by id for no key update) locked
      where tags.id = locked.id`);
    await tx.update(questionCounters).set({
      total: sql`${questionCounters.total} + ${step}`,
      unanswered: sql`${questionCounters.unanswered} + ${question.answerCount === 0 ? step : 0}`,
    });
    const tags = await tagNamesOf(tx, questionId);
    return { result: { deleted }, events: [{ type: 'questionDeleted', questionId, deleted, tags }] };
  });
}

/**
 * Deletes an answer or undeletes it: its question's answer count (and the tag pages' copy,
 * and the unanswered total while the question shows) moves, and a deleted accepted answer
 * is no longer accepted. The question's row is locked, then the answer's.
 */
export async function setAnswerDeleted(
  db: Db,
  actor: Actor,
  answerId: number,
  deleted: boolean,
): Promise<Outcome<Deletion & { questionId: number }>> {
  return db.transaction(async (tx) => {
    const [owner] = await tx.select({ questionId: answers.questionId }).from(answers).where(eq(answers.id, answerId));
    if (!owner) throw notFound('Answer not found');
    const questionId = Number(owner.questionId);
    const question = await lockedQuestion(tx, questionId);
    const [answer] = await tx
      .select({ deletedAt: answers.deletedAt })
      .from(answers)
      .where(eq(answers.id, answerId))
      .for('update');
    if (!answer) throw notFound('Answer not found');
    if ((answer.deletedAt !== null) === deleted) return { result: { deleted, questionId }, events: [] };
    const step = deleted ? -1 : 1;
    const answerCount = question.answerCount + step;
    const unaccepted = deleted && question.acceptedAnswerId === answerId;
    await tx.update(answers).set(deletion(actor, deleted)).where(eq(answers.id, answerId));
    await tx
      .update(questions)
      .set({
        answerCount,
        hiddenCount: sql`${questions.hiddenCount} - ${step}`,
        ...(unaccepted ? { acceptedAnswerId: null } : {}),
      })
      .where(eq(questions.id, questionId));
    await tx.update(questionTags).set({ answerCount }).where(eq(questionTags.questionId, questionId));
    const unansweredChanged = (answerCount === 0) !== (question.answerCount === 0);
    if (unansweredChanged && question.deletedAt === null) {
      await tx.update(questionCounters).set({ unanswered: sql`${questionCounters.unanswered} - ${step}` });
    }
    const tags = await tagNamesOf(tx, questionId);
    const events: DomainEvent[] = [{ type: 'answerDeleted', questionId, answerId, deleted, tags, unansweredChanged }];
    if (unaccepted) events.push({ type: 'answerAccepted', questionId, acceptedAnswerId: null });
    return { result: { deleted, questionId }, events };
  });
}

/** Deletes a comment or undeletes it; its question's row is locked (it counts its hidden posts). */
export async function setCommentDeleted(
  db: Db,
  actor: Actor,
  commentId: number,
  deleted: boolean,
): Promise<Outcome<Deletion>> {
  return db.transaction(async (tx) => {
    const [owner] = await rowsIn<{ questionId: number }>(
      tx,
      sql`select coalesce(c.question_id, an.question_id) as "questionId"
        from comments c left join answers an on an.id = c.answer_id where c.id = ${commentId}`,
    );
    if (!owner) throw notFound('Comment not found');
    const questionId = Number(owner.questionId);
    await lockedQuestion(tx, questionId);
    const [comment] = await tx
      .select({ deletedAt: comments.deletedAt })
      .from(comments)
      .where(eq(comments.id, commentId))
      .for('update');
    if (!comment) throw notFound('Comment not found');
    if ((comment.deletedAt !== null) === deleted) return { result: { deleted }, events: [] };
    await tx.update(comments).set(deletion(actor, deleted)).where(eq(comments.id, commentId));
    await tx
      .update(questions)
      .set({ hiddenCount: sql`${questions.hiddenCount} + ${deleted ? 1 : -1}` })
      .where(eq(questions.id, questionId));
    return { result: { deleted }, events: [{ type: 'commentDeleted', questionId, commentId, deleted }] };
  });
}
