import { MESSAGES, type AnswerAdded, type DomainEvent, type Outcome } from '@porpoise/core';
import { mentionedUsernames } from '@porpoise/core/markdown';
import { sql } from 'drizzle-orm';
import { inTransaction, queryPrepared, type Db, type Tx } from '../db/client.ts';
import { badRequest, HttpError, postNotFound } from '../http/http-error.ts';
import { countHits, refuseOverLimit, withinLimits, type CountedHit, type RateHit } from '../limits/rate-counters.ts';
import type { StoredImage } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';
import { reputationSql } from '../queries/reputation.ts';
import { heldFor, removeAnswer } from './delete-post.ts';
import { imagesParam, postImages, type PostImages } from './post-images.ts';

/** One row per counted key, each with the answer's columns (null when none was added). */
interface Row extends CountedHit {
  id: number | null;
  text: string | null;
  ansDateTime: Date | string | null;
  ansByReputation: number | null;
  answerCount: number | null;
  tags: string[] | null;
  closed: boolean | null;
}

/**
 * Counts the poster's rate-limit hits and, within the limits, adds an answer and moves the
 * question's answer count and last activity (and, for its first answer, the unanswered
 * count), on the question and on its tags' rows: one statement, so one round trip and one commit, atomic like a transaction.
 * Past a limit nothing is added and it answers 429. The UPDATE locks the question's row,
 * so concurrent answers to one question count one after another.
 */
export async function addAnswer(
  db: Db,
  actor: Actor,
  questionId: number,
  text: string,
  limits: RateHit[],
  awaitsApproval = false,
): Promise<Outcome<NewAnswer | Refused>> {
  const images = await postImages(db, text);
  if (!awaitsApproval) return insertAnswer(db, actor, questionId, text, images, limits, false);
  // A new account's answer (docs/product.md section 10): held in the same transaction until a
  // moderator approves it; its question's page hears only that a hidden answer came.
  return inTransaction(db, async (tx) => {
    const added = await insertAnswer(tx, actor, questionId, text, images, limits, true);
    if ('refused' in added.result) return added;
    const { events } = await removeAnswer(tx, added.result.id, heldFor('approval'));
    const review: DomainEvent = { type: 'reviewChanged', targetType: 'answer', targetId: added.result.id };
    // Added, and held: its notifications are written hidden, and show when it is approved
    // (nobody is sent the answer itself: it reads as not there until then).
    return { result: added.result, events: [...added.events, ...events, review] } satisfies Outcome<unknown>;
  });
}

/** The answer added. */
export interface NewAnswer {
  id: number;
  text: string;
  ansDateTime: Date;
  /** Its author's reputation, beside their name. */
  ansByReputation: number;
  images: StoredImage[] | null;
}

/** A write refused after it counted its rate-limit hits: committed, then thrown by the route (`accepted`). */
export interface Refused {
  refused: HttpError;
}

/** The error `check` throws, if it throws an HttpError; anything else goes on up. */
function refusalOf(check: () => void): HttpError | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

/** A write's result, or its refusal thrown (once the write has committed). */
export function accepted<T extends object>(result: T | Refused): T {
  if ('refused' in result) throw result.refused;
  return result;
}

async function insertAnswer(
  db: Db | Tx,
  actor: Actor,
  questionId: number,
  text: string,
  images: PostImages,
  limits: RateHit[],
  held: boolean,
): Promise<Outcome<NewAnswer | Refused>> {
  const rows = await queryPrepared<Row>(
    db,
    sql`
    with hits as (${countHits(limits)}
    ), inserted as (
      insert into answers (question_id, text, ans_by, images)
      select id, ${text}, ${actor.id}, ${imagesParam(images)} from questions
      where id = ${questionId} and deleted_at is null and closed_at is null and ${withinLimits(limits, sql`hits`)}
      -- Locked here: a delete or a close holding the row is waited for, and the row checked again.
      for no key update of questions
      returning id, text, ans_date_time
    ), counted as (
      -- A held answer (waiting for approval) shows no activity: nobody else sees it yet.
      update questions q set answer_count = q.answer_count + 1,
        last_activity_at = case when ${held}::boolean then q.last_activity_at else i.ans_date_time end
      from inserted i where q.id = ${questionId}
      returning q.answer_count
    ), unanswered as (
      update question_counters set unanswered = unanswered - 1
      where exists (select 1 from counted where answer_count = 1)
    ), tagged as (
      -- The tag pages' copy of the question's keys (schema: question_tags).
      update question_tags qt set answer_count = c.answer_count,
        last_activity_at = case when ${held}::boolean then qt.last_activity_at else i.ans_date_time end
      from inserted i, counted c where qt.question_id = ${questionId}
    )
    select h.key, h.count, h.retry_ms, i.id, i.text, i.ans_date_time as "ansDateTime",
      (select ${reputationSql(sql`reputation_sum`)} from accounts where id = ${actor.id}) as "ansByReputation",
      (select closed_at is not null and deleted_at is null from questions where id = ${questionId}) as closed,
      (select answer_count from counted) as "answerCount",
      (select array_agg(t.name) from question_tags qt join tags t on t.id = qt.tag_id
        where qt.question_id = ${questionId} and i.id is not null) as tags
    from hits h left join inserted i on true`,
  );
  const [answer] = rows;
  // Refused, the hits it counted still commit with the write (processor `write`): an answer
  // to a missing question counts toward the limit as it did when this was one statement.
  const refusal =
    refusalOf(() => refuseOverLimit(limits, rows)) ??
    // A closed question keeps its answers and takes no new ones (docs/product.md section 9).
    (answer?.closed ? badRequest(MESSAGES.questionClosed) : answer?.id == null ? postNotFound('question') : null);
  if (refusal !== null || answer?.id == null) {
    return { result: { refused: refusal ?? postNotFound('question') }, events: [] } satisfies Outcome<Refused>;
  }
  const id = Number(answer.id);
  const event: AnswerAdded = {
    type: 'answerAdded',
    questionId,
    answerId: id,
    tags: answer.tags ?? [],
    firstAnswer: Number(answer.answerCount) === 1,
    mentions: mentionedUsernames(text),
    images: images.names,
  };
  return {
    result: {
      id,
      text: String(answer.text),
      ansDateTime: new Date(answer.ansDateTime!),
      ansByReputation: Number(answer.ansByReputation),
      images: images.stored,
    },
    events: [event],
  } satisfies Outcome<unknown>;
}
