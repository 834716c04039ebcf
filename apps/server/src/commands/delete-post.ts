import { MESSAGES, type DomainEvent, type HeldFor, type Outcome } from '@porpoise/core';
import { eq, sql, type SQL } from 'drizzle-orm';
import { inTransaction, type Db, type Tx } from '../db/client.ts';
import { answers, comments, messages, questionCounters, questions, questionTags } from '../db/schema.ts';
import { badRequest, postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { can } from '../policies/authorize.ts';
import { closeFlags, recordModeration, type FlagTargetRef } from './moderation-log.ts';
import { setTagRowsDeleted } from './question-tags.ts';

/** Why a post is held from view now (null: it is not), read before a decision on it. */
async function heldNow(tx: Tx, { targetType, targetId }: FlagTargetRef): Promise<string | null> {
  const table = { question: questions, answer: answers, comment: comments, message: messages }[targetType];
  const [row] = await tx.select({ heldFor: table.heldFor }).from(table).where(eq(table.id, targetId));
  return row?.heldFor ?? null;
}

/**
 * A delete or undelete as a decision (docs/product.md section 10): a moderator's on someone
 * else's post, or anyone's on flagged or held content, the post's own author included
 * ("whoever makes it"). The post's open flags are closed and the action logged (undeleting
 * a held post is approving it, or dismissing its flags), in the same transaction; the
 * review queue hears of it. Nothing for an author's own unflagged post, or when nothing changed.
 */
async function asDecision(
  tx: Tx,
  actor: Actor,
  target: FlagTargetRef,
  deleted: boolean,
  subjectId: number | null,
  change: { events: DomainEvent[]; heldBefore: string | null },
): Promise<DomainEvent[]> {
  const { events, heldBefore } = change;
  if (subjectId === null || events.length === 0) return events;
  const closed = await closeFlags(tx, target, deleted ? 'deleted' : 'dismissed');
  if (subjectId === actor.id && closed === null && heldBefore === null) return events;
  const undone = heldBefore === 'approval' ? 'approve' : heldBefore === 'flags' ? 'dismiss' : 'undelete';
  await recordModeration(tx, actor, { action: deleted ? 'delete' : undone, ...target, subjectId, reason: closed });
  return closed !== null || heldBefore !== null ? [...events, { type: 'reviewChanged', ...target }] : events;
}

/**
 * Runs `remove` (a post's removal, in `tx`) for `actor`: a moderator (`authorId` given) may
 * re-mark a hidden post, their own included; decisions are logged (asDecision).
 */
async function removedBy(
  tx: Tx,
  actor: Actor,
  target: FlagTargetRef,
  deleted: boolean,
  authorId: number | null,
  remove: (removal: Removal) => Promise<DomainEvent[]>,
): Promise<DomainEvent[]> {
  const moderating = authorId !== null && can(actor, 'moderate', { type: 'site' });
  // Read whoever acts: a moderator undeleting their own held post decides on it too.
  const heldBefore = authorId === null ? null : await heldNow(tx, target);
  const events = await remove(deletedBy(actor, deleted, moderating));
  return asDecision(tx, actor, target, deleted, authorId, { events, heldBefore });
}

/** Raw SQL's rows inside a transaction (both drivers answer with `{ rows }`). */
async function rowsIn<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result: unknown = await tx.execute(query);
  return (result as { rows: T[] }).rows;
}

/** A post's state after a delete or an undelete. */
export interface Deletion {
  deleted: boolean;
}

/**
 * What happens to a post: deleted by someone (`by`), held from view by nobody (`by` null,
 * `held` saying why: docs/product.md section 10), or shown again (`deleted` false).
 */
export interface Removal {
  deleted: boolean;
  by: number | null;
  held: HeldFor | null;
  /**
   * A moderator's decision: it may re-mark a post already hidden (who removed it, and
   * why). Anyone else deleting a hidden post changes nothing: an author re-deleting what a
   * moderator deleted or the flags hid would otherwise make it theirs to undelete.
   */
  moderating: boolean;
}

export const deletedBy = (actor: Actor, deleted: boolean, moderating = false): Removal => ({
  deleted,
  by: deleted ? actor.id : null,
  held: null,
  moderating,
});
export const heldFor = (held: HeldFor): Removal => ({ deleted: true, by: null, held, moderating: false });
export const shown: Removal = { deleted: false, by: null, held: null, moderating: false };

/** When, by whom and why, as the columns take them: all null once it shows. */
const deletion = (removal: Removal) =>
  removal.deleted
    ? { deletedAt: sql`now()`, deletedBy: removal.by, heldFor: removal.held }
    : { deletedAt: null, deletedBy: null, heldFor: null };

/**
 * Whether a post in its current state (`deletedAt`, `deletedBy`, `heldFor`) changes: it
 * shows or not, or (hidden both before and after, by a moderator's decision) who removed
 * it and why: a moderator deleting a post the flags hid changes only that.
 */
function changes(
  row: { deletedAt: Date | null; deletedBy: number | null; heldFor: string | null },
  removal: Removal,
): 'visibility' | 'mark' | null {
  if ((row.deletedAt !== null) !== removal.deleted) return 'visibility';
  if (!removal.deleted || !removal.moderating) return null;
  const by = row.deletedBy === null ? null : Number(row.deletedBy);
  return by === removal.by && row.heldFor === removal.held ? null : 'mark';
}

/** A question's row, locked for the rest of the transaction; 404 when there is none. */
async function lockedQuestion(tx: Tx, questionId: number) {
  const [question] = await tx
    .select({
      deletedAt: questions.deletedAt,
      deletedBy: questions.deletedBy,
      heldFor: questions.heldFor,
      answerCount: questions.answerCount,
      acceptedAnswerId: questions.acceptedAnswerId,
    })
    .from(questions)
    .where(eq(questions.id, questionId))
    .for('update');
  if (!question) throw postNotFound('question');
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
 * Deletes a question (docs/product.md section 9) or undeletes it: it leaves (or rejoins) every
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
  /** The author (a moderator acting on another's post is logged); null: do not log. */
  authorId: number | null = null,
): Promise<Outcome<Deletion>> {
  return inTransaction(db, async (tx) => {
    const target = { targetType: 'question', targetId: questionId } as const;
    const events = await removedBy(tx, actor, target, deleted, authorId, (removal) =>
      removeQuestion(tx, questionId, removal, evenAnswered),
    );
    return { result: { deleted }, events };
  });
}

/** setQuestionDeleted inside a transaction, for any removal (held, deleted, shown): its events. */
export async function removeQuestion(
  tx: Tx,
  questionId: number,
  removal: Removal,
  evenAnswered: boolean,
): Promise<DomainEvent[]> {
  const question = await lockedQuestion(tx, questionId);
  const change = changes(question, removal);
  if (change === null) return [];
  const { deleted, held } = removal;
  if (change === 'visibility' && deleted && question.answerCount > 0 && !evenAnswered) {
    throw badRequest(MESSAGES.questionHasAnswers);
  }
  await tx.update(questions).set(deletion(removal)).where(eq(questions.id, questionId));
  const tags = await tagNamesOf(tx, questionId);
  const event: DomainEvent = { type: 'questionDeleted', questionId, deleted, held, tags };
  if (change === 'mark') return [event];
  const step = deleted ? -1 : 1;
  await setTagRowsDeleted(tx, questionId, deleted);
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
  return [event];
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
  authorId: number | null = null,
): Promise<Outcome<Deletion & { questionId: number }>> {
  return inTransaction(db, async (tx) => {
    const target = { targetType: 'answer', targetId: answerId } as const;
    let questionId = 0;
    const events = await removedBy(tx, actor, target, deleted, authorId, async (removal) => {
      const removed = await removeAnswer(tx, answerId, removal);
      questionId = removed.questionId;
      return removed.events;
    });
    return { result: { deleted, questionId }, events };
  });
}

/** setAnswerDeleted inside a transaction, for any removal: the answer's question, and the events. */
export async function removeAnswer(
  tx: Tx,
  answerId: number,
  removal: Removal,
): Promise<{ questionId: number; events: DomainEvent[] }> {
  const [owner] = await tx.select({ questionId: answers.questionId }).from(answers).where(eq(answers.id, answerId));
  if (!owner) throw postNotFound('answer');
  const questionId = Number(owner.questionId);
  const question = await lockedQuestion(tx, questionId);
  const [answer] = await tx
    .select({
      deletedAt: answers.deletedAt,
      deletedBy: answers.deletedBy,
      heldFor: answers.heldFor,
      heldAccepted: answers.heldAccepted,
    })
    .from(answers)
    .where(eq(answers.id, answerId))
    .for('update');
  if (!answer) throw postNotFound('answer');
  const change = changes(answer, removal);
  // Already as asked (deleting twice): nothing changed, so nothing to tell.
  if (change === null) return { questionId, events: [] };
  const { deleted, held } = removal;
  // Flags that hide the accepted answer take its acceptance away only until a moderator
  // decides: shown again, it is accepted again (unless the asker accepted another meanwhile).
  const heldAccepted = deleted && held !== null && question.acceptedAnswerId === answerId;
  const reaccepted = !deleted && answer.heldAccepted && question.acceptedAnswerId === null;
  await tx
    .update(answers)
    .set({ ...deletion(removal), heldAccepted })
    .where(eq(answers.id, answerId));
  const tags = await tagNamesOf(tx, questionId);
  if (change === 'mark') {
    return {
      questionId,
      events: [{ type: 'answerDeleted', questionId, answerId, deleted, held, tags, unansweredChanged: false }],
    };
  }
  const step = deleted ? -1 : 1;
  const answerCount = question.answerCount + step;
  const unaccepted = deleted && question.acceptedAnswerId === answerId;
  await tx
    .update(questions)
    .set({
      answerCount,
      hiddenCount: sql`${questions.hiddenCount} - ${step}`,
      ...(unaccepted ? { acceptedAnswerId: null } : {}),
      ...(reaccepted ? { acceptedAnswerId: answerId } : {}),
    })
    .where(eq(questions.id, questionId));
  await tx.update(questionTags).set({ answerCount }).where(eq(questionTags.questionId, questionId));
  const unansweredChanged = (answerCount === 0) !== (question.answerCount === 0);
  if (unansweredChanged && question.deletedAt === null) {
    await tx.update(questionCounters).set({ unanswered: sql`${questionCounters.unanswered} - ${step}` });
  }
  const events: DomainEvent[] = [
    { type: 'answerDeleted', questionId, answerId, deleted, held, tags, unansweredChanged },
  ];
  if (unaccepted) events.push({ type: 'answerAccepted', questionId, acceptedAnswerId: null });
  if (reaccepted) events.push({ type: 'answerAccepted', questionId, acceptedAnswerId: answerId });
  return { questionId, events };
}

/** Deletes a comment or undeletes it; its question's row is locked (it counts its hidden posts). */
export async function setCommentDeleted(
  db: Db,
  actor: Actor,
  commentId: number,
  deleted: boolean,
  authorId: number | null = null,
): Promise<Outcome<Deletion>> {
  return inTransaction(db, async (tx) => {
    const target = { targetType: 'comment', targetId: commentId } as const;
    const events = await removedBy(
      tx,
      actor,
      target,
      deleted,
      authorId,
      async (removal) => (await removeComment(tx, commentId, removal)).events,
    );
    return { result: { deleted }, events };
  });
}

/** setCommentDeleted inside a transaction, for any removal: the comment's question, and the events. */
export async function removeComment(
  tx: Tx,
  commentId: number,
  removal: Removal,
): Promise<{ questionId: number; events: DomainEvent[] }> {
  const [owner] = await rowsIn<{ questionId: number }>(
    tx,
    sql`select coalesce(c.question_id, an.question_id) as "questionId"
      from comments c left join answers an on an.id = c.answer_id where c.id = ${commentId}`,
  );
  if (!owner) throw postNotFound('comment');
  const questionId = Number(owner.questionId);
  await lockedQuestion(tx, questionId);
  const [comment] = await tx
    .select({ deletedAt: comments.deletedAt, deletedBy: comments.deletedBy, heldFor: comments.heldFor })
    .from(comments)
    .where(eq(comments.id, commentId))
    .for('update');
  if (!comment) throw postNotFound('comment');
  const change = changes(comment, removal);
  // Already as asked (deleting twice): nothing changed, so nothing to tell.
  if (change === null) return { questionId, events: [] };
  const { deleted, held } = removal;
  await tx.update(comments).set(deletion(removal)).where(eq(comments.id, commentId));
  if (change === 'visibility') {
    await tx
      .update(questions)
      .set({ hiddenCount: sql`${questions.hiddenCount} + ${deleted ? 1 : -1}` })
      .where(eq(questions.id, questionId));
  }
  return { questionId, events: [{ type: 'commentDeleted', questionId, commentId, deleted, held }] };
}

/**
 * Hides a forum or PorpChat message (held by flags, or deleted by a moderator) or shows it
 * again (docs/product.md section 10): its thread's readers stop seeing it, but for moderators
 * and the account that sent it. The message's row is locked.
 */
export async function removeMessage(tx: Tx, messageId: number, removal: Removal): Promise<DomainEvent[]> {
  const [message] = await tx
    .select({
      threadId: messages.threadId,
      deletedAt: messages.deletedAt,
      deletedBy: messages.deletedBy,
      heldFor: messages.heldFor,
    })
    .from(messages)
    .where(eq(messages.id, messageId))
    .for('update');
  if (!message) throw postNotFound('message');
  if (changes(message, removal) === null) return [];
  await tx.update(messages).set(deletion(removal)).where(eq(messages.id, messageId));
  const { deleted, held } = removal;
  return [{ type: 'messageDeleted', threadId: Number(message.threadId), messageId, deleted, held }];
}
