import { LIMITS } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';
import { PUBLIC_VIEW, type HiddenPostsSeen } from '../policies/authorize.ts';
import type { AnswerRow, AnswerWithCommentsRow, CommentRow, UserAnswerRow } from '../presenters/question.ts';
import { accountIdByName } from './accounts.ts';
import { ANSWER_COLUMNS, shows } from './question-sql.ts';

/**
 * One answer's row (a new answer has no comments yet); null when there is none, or it (or
 * its question) is deleted and `seen` does not show it (events are read as the public sees them).
 */
export async function getAnswerRow(
  db: Db,
  answerId: number,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<AnswerRow | null> {
  const [row] = await queryPrepared<AnswerRow>(
    db,
    sql`select ${ANSWER_COLUMNS} from answers an join accounts a on a.id = an.ans_by
        join questions q on q.id = an.question_id
      where an.id = ${answerId} and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)}
        and ${shows(seen, sql`q.deleted_at`, sql`q.asked_by`)}`,
  );
  return row ? { ...row, id: Number(row.id), ansDateTime: new Date(row.ansDateTime) } : null;
}

/**
 * A page of a question's answers, oldest first (ties by id), each with its comments: the
 * first LIMITS.answerPageSize, or that many after the answer `afterId` (a keyset on the
 * question's answer index, however many there are). Deleted ones only as `seen` lets.
 */
export async function getAnswerPage(
  db: Db,
  questionId: number,
  afterId: number | null,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<AnswerWithCommentsRow[]> {
  const after =
    afterId === null
      ? sql``
      : sql`and (an.ans_date_time, an.id) > (select ans_date_time, id from answers
          where id = ${afterId} and question_id = ${questionId})`;
  const answers = await queryPrepared<AnswerRow>(
    db,
    sql`select ${ANSWER_COLUMNS}
      from answers an join accounts a on a.id = an.ans_by
      where an.question_id = ${questionId} and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)} ${after}
      order by an.ans_date_time, an.id limit ${LIMITS.answerPageSize}`,
  );
  if (answers.length === 0) return [];
  const comments = await queryPrepared<CommentRow & { answerId: number }>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime",
        c.answer_id as "answerId", c.deleted_at as "deletedAt", c.held_for as "heldFor"
      from comments c join accounts a on a.id = c.comment_by
      where c.answer_id = any(${sql.param(answers.map((row) => Number(row.id)))}::bigint[])
        and ${shows(seen, sql`c.deleted_at`, sql`c.comment_by`)}
      order by c.comment_date_time, c.id`,
  );
  const commentsByAnswer = new Map<number, CommentRow[]>();
  for (const row of comments) {
    const answerId = Number(row.answerId);
    const comment = { ...row, id: Number(row.id), commentDateTime: new Date(row.commentDateTime) };
    commentsByAnswer.set(answerId, [...(commentsByAnswer.get(answerId) ?? []), comment]);
  }
  return answers.map((row) => ({
    ...row,
    id: Number(row.id),
    ansDateTime: new Date(row.ansDateTime),
    comments: commentsByAnswer.get(Number(row.id)) ?? [],
  }));
}

/** One answer with its question's id and title (the answer's edit screen), or null. */
export async function getAnswerWithQuestion(db: Db, answerId: number): Promise<UserAnswerRow | null> {
  const [row] = await queryRows<UserAnswerRow>(
    db,
    sql`select an.id, an.text, an.images, a.username as "ansBy", an.ans_date_time as "ansDateTime",
        an.question_id as qid, q.title as "questionTitle"
      from answers an join accounts a on a.id = an.ans_by join questions q on q.id = an.question_id
      where an.id = ${answerId}`,
  );
  return row ?? null;
}

/** A user's answers, newest first, each with its question's id and title; null when the user does not exist. */
export async function listAnswersBy(db: Db, username: string): Promise<UserAnswerRow[] | null> {
  const accountId = await accountIdByName(db, username);
  if (accountId === null) return null;
  return queryRows<UserAnswerRow>(
    db,
    sql`select an.id, an.text, an.images, a.username as "ansBy", an.ans_date_time as "ansDateTime",
        an.question_id as qid, q.title as "questionTitle"
      from answers an join accounts a on a.id = an.ans_by join questions q on q.id = an.question_id
      where an.ans_by = ${accountId} and an.deleted_at is null and q.deleted_at is null order by an.ans_date_time desc nulls last, an.id desc nulls last limit 500`,
  );
}
