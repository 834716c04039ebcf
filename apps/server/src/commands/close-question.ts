import { LIMITS, MESSAGES, type CloseReason, type DomainEvent, type Outcome } from '@porpoise/core';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { inTransaction, queryPrepared, type Db, type Tx } from '../db/client.ts';
import { questions } from '../db/schema.ts';
import { badRequest, conflict, postNotFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { recordModeration } from './moderation-log.ts';

export interface Closing {
  reason: CloseReason;
  /** The original, for a duplicate; null otherwise. */
  duplicateOf: number | null;
}

/** The question's row, locked: whether it is closed, and its asker. 404 once deleted. */
async function lockedQuestion(tx: Tx, questionId: number) {
  const [question] = await tx
    .select({ closedAt: questions.closedAt, askedBy: questions.askedBy })
    .from(questions)
    .where(and(eq(questions.id, questionId), isNull(questions.deletedAt)))
    .for('update');
  if (!question) throw postNotFound('question');
  return question;
}

/** A duplicate names an original that shows and is not itself. */
async function checkOriginal(tx: Tx, questionId: number, closing: Closing | null): Promise<void> {
  if (closing === null || closing.duplicateOf === null) return;
  if (closing.duplicateOf === questionId) throw badRequest(MESSAGES.duplicateOfItself);
  const [original] = await tx
    .select({ id: questions.id })
    .from(questions)
    .where(and(eq(questions.id, closing.duplicateOf), isNull(questions.deletedAt)));
  if (!original) throw badRequest(MESSAGES.duplicateNotFound);
}

/**
 * Closes (or, `closing` null, reopens) the locked question as `actor`, logged with `why`:
 * the votes waiting to change its state go, whatever changed it.
 */
async function applyClosing(
  tx: Tx,
  actor: Actor,
  questionId: number,
  askedBy: number,
  closing: Closing | null,
  why: string | null,
): Promise<DomainEvent[]> {
  await tx
    .update(questions)
    .set(
      closing === null
        ? { closedAt: null, closedBy: null, closeReason: null, duplicateOf: null, closeVotes: 0 }
        : {
            closedAt: sql`now()`,
            closedBy: actor.id,
            closeReason: closing.reason,
            duplicateOf: closing.duplicateOf,
            closeVotes: 0,
          },
    )
    .where(eq(questions.id, questionId));
  await queryPrepared(tx, sql`delete from close_votes where question_id = ${questionId}`);
  // Each close and reopen is logged (docs/product.md section 10), a community's by its last voter.
  await recordModeration(tx, actor, {
    action: closing === null ? 'reopen' : 'close',
    targetType: 'question',
    targetId: questionId,
    subjectId: askedBy,
    reason: why,
  });
  return [{ type: 'questionClosed', questionId }];
}

const closeWhy = (closing: Closing) =>
  closing.duplicateOf === null ? closing.reason : `duplicate of ${closing.duplicateOf}`;

/**
 * Closes a question with a reason (docs/product.md section 9), or reopens it (`closing` null):
 * a closed question keeps its answers and takes no new ones. Closing a closed question
 * again changes its reason; reopening an open one changes nothing. A duplicate names an
 * original that shows and is not itself. The question's row is locked. The caller has
 * checked that the actor may (moderators): it acts at once, and clears the members' votes.
 */
export async function setClosed(
  db: Db,
  actor: Actor,
  questionId: number,
  closing: Closing | null,
): Promise<Outcome<void>> {
  return inTransaction(db, async (tx) => {
    const question = await lockedQuestion(tx, questionId);
    // Reopening an open question changes nothing: nothing to tell.
    if (closing === null && question.closedAt === null) return { result: undefined, events: [] };
    await checkOriginal(tx, questionId, closing);
    const why = closing === null ? null : closeWhy(closing);
    return { result: undefined, events: await applyClosing(tx, actor, questionId, question.askedBy, closing, why) };
  });
}

interface CastVote {
  reason: CloseReason | null;
  duplicateOf: number | null;
}

/**
 * What the votes decide (docs/product.md section 13): the reason most voters gave, a tie going
 * to the reason of the earliest vote among them; for a duplicate, the original most duplicate
 * voters named, likewise. `votes` are in the order cast.
 */
export function decideClosing(votes: readonly CastVote[]): Closing {
  const most = <T>(values: readonly T[]): T => {
    const counts = new Map<T, number>();
    for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
    // A Map keeps first-seen order: of the values tied at the highest count, the earliest wins.
    let best: { value: T; count: number } | null = null;
    for (const [value, count] of counts) if (best === null || count > best.count) best = { value, count };
    if (best === null) throw new Error('no votes to decide by');
    return best.value;
  };
  const reason = most(votes.map((vote) => vote.reason ?? 'off-topic'));
  if (reason !== 'duplicate') return { reason, duplicateOf: null };
  const originals = votes.filter((vote) => vote.reason === 'duplicate').map((vote) => vote.duplicateOf!);
  return { reason, duplicateOf: most(originals) };
}

/**
 * A member's vote to close an open question (`closing` its reason) or to reopen a closed one
 * (`closing` null): one per member while the state stands (409), the third deciding
 * (decideClosing) and acting as a moderator's close or reopen would, logged as the last
 * voter's. The caller has checked the member has 'Vote to close'. Answers the votes waiting.
 */
export async function castCloseVote(
  db: Db,
  actor: Actor,
  questionId: number,
  closing: Closing | null,
): Promise<Outcome<{ closeVotes: number }>> {
  return inTransaction(db, async (tx) => {
    const question = await lockedQuestion(tx, questionId);
    if (closing !== null && question.closedAt !== null) throw conflict(MESSAGES.alreadyClosed);
    if (closing === null && question.closedAt === null) throw conflict(MESSAGES.notClosed);
    await checkOriginal(tx, questionId, closing);
    const cast = await queryPrepared<{ one: number }>(
      tx,
      sql`insert into close_votes (question_id, account_id, kind, reason, duplicate_of)
        values (${questionId}, ${actor.id}, ${closing === null ? 'reopen' : 'close'}, ${closing?.reason ?? null},
          ${closing?.duplicateOf ?? null})
        on conflict do nothing returning 1 as one`,
    );
    if (cast.length === 0) throw conflict(closing === null ? MESSAGES.reopenVoteTwice : MESSAGES.closeVoteTwice);
    const votes = (
      await queryPrepared<{ reason: CloseReason | null; duplicateOf: string | number | null }>(
        tx,
        sql`select reason, duplicate_of as "duplicateOf" from close_votes where question_id = ${questionId}
          order by created_at, account_id`,
      )
    ).map((vote) => ({
      reason: vote.reason,
      duplicateOf: vote.duplicateOf === null ? null : Number(vote.duplicateOf),
    }));
    if (votes.length >= LIMITS.closeVotesToDecide) {
      const decided = closing === null ? null : decideClosing(votes);
      const why = `${decided === null ? 'reopened' : closeWhy(decided)} by ${votes.length} votes`;
      const events = await applyClosing(tx, actor, questionId, question.askedBy, decided, why);
      return { result: { closeVotes: 0 }, events };
    }
    await tx.update(questions).set({ closeVotes: votes.length }).where(eq(questions.id, questionId));
    return { result: { closeVotes: votes.length }, events: [{ type: 'closeVoteCast', questionId }] };
  });
}
