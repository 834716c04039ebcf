import type { CommentTarget } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';
import type { CommentRow } from '../presenters/question.ts';

/** One comment's row, with what it is under; null when there is none, or it (or a post it is under) is deleted. */
export async function getCommentRow(
  db: Db,
  commentId: number,
): Promise<(CommentRow & { target: CommentTarget; parentId: number }) | null> {
  const [row] = await queryPrepared<CommentRow & { questionId: number | null; answerId: number | null }>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime",
        c.question_id as "questionId", c.answer_id as "answerId"
      from comments c join accounts a on a.id = c.comment_by
        left join answers an on an.id = c.answer_id
        join questions q on q.id = coalesce(c.question_id, an.question_id)
      where c.id = ${commentId} and c.deleted_at is null and an.deleted_at is null and q.deleted_at is null`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    text: row.text,
    commentBy: row.commentBy,
    commentDateTime: new Date(row.commentDateTime),
    target: row.questionId === null ? 'answer' : 'question',
    parentId: Number(row.questionId ?? row.answerId),
  };
}

/** An answer's comments that show, oldest first (an undeleted answer comes back with them). */
export async function getAnswerComments(db: Db, answerId: number): Promise<CommentRow[]> {
  const rows = await queryRows<CommentRow>(
    db,
    sql`select c.id, c.text, a.username as "commentBy", c.comment_date_time as "commentDateTime"
      from comments c join accounts a on a.id = c.comment_by
      where c.answer_id = ${answerId} and c.deleted_at is null order by c.comment_date_time, c.id`,
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), commentDateTime: new Date(row.commentDateTime) }));
}
