import { sql } from 'drizzle-orm';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';

/** A post's author, whether it is deleted, and by whom: what the policies decide on. */
export interface Ownership {
  authorId: number;
  deleted: boolean;
  /** Who deleted it (null while it shows). */
  deletedBy: number | null;
  /** Hidden while nobody deleted it (flags, or waiting for approval): a moderator decides. */
  held: boolean;
}

/** A post's own columns as the queries below select them (the driver may give ids as text). */
type OwnershipRow = Omit<Ownership, 'held'> & { held?: boolean };

const ownership = (row: OwnershipRow): Ownership => ({
  authorId: Number(row.authorId),
  deleted: row.deleted,
  deletedBy: row.deletedBy === null ? null : Number(row.deletedBy),
  held: row.held === true,
});

/** Who asked a question, and whether it is deleted or closed; null when there is no such question. */
export async function getQuestionOwnership(
  db: Db,
  questionId: number,
): Promise<(Ownership & { askerId: number; closed: boolean }) | null> {
  const [row] = await queryPrepared<{
    askerId: number;
    deleted: boolean;
    deletedBy: number | null;
    held: boolean;
    closed: boolean;
  }>(
    db,
    sql`select asked_by as "askerId", deleted_at is not null as deleted, deleted_by as "deletedBy",
        held_for is not null as held,
        closed_at is not null as closed
      from questions where id = ${questionId}`,
  );
  if (!row) return null;
  return { ...ownership({ ...row, authorId: row.askerId }), askerId: Number(row.askerId), closed: row.closed };
}

/**
 * Who wrote an answer, and whether it is deleted (so is an answer to a deleted question,
 * for whoever may not see that question); null when there is no such answer.
 */
export async function getAnswerOwnership(
  db: Db,
  answerId: number,
): Promise<(Ownership & { question: Ownership }) | null> {
  const [row] = await queryRows<
    OwnershipRow & { askerId: number; questionDeleted: boolean; questionDeletedBy: number | null }
  >(
    db,
    sql`select an.ans_by as "authorId", an.deleted_at is not null as deleted, an.deleted_by as "deletedBy",
        an.held_for is not null as held, q.asked_by as "askerId", q.deleted_at is not null as "questionDeleted", q.deleted_by as "questionDeletedBy"
      from answers an join questions q on q.id = an.question_id where an.id = ${answerId}`,
  );
  if (!row) return null;
  return {
    ...ownership(row),
    question: ownership({ authorId: row.askerId, deleted: row.questionDeleted, deletedBy: row.questionDeletedBy }),
  };
}

/**
 * Who wrote a comment and whether it is deleted, with the posts it is under (its question,
 * and its answer if on one); null when there is no such comment.
 */
export async function getCommentOwnership(
  db: Db,
  commentId: number,
): Promise<(Ownership & { question: Ownership; answer: Ownership | null }) | null> {
  const [row] = await queryRows<
    OwnershipRow & {
      askerId: number;
      questionDeleted: boolean;
      answerAuthorId: number | null;
      answerDeleted: boolean | null;
    }
  >(
    db,
    sql`select c.comment_by as "authorId", c.deleted_at is not null as deleted, c.deleted_by as "deletedBy",
        c.held_for is not null as held, q.asked_by as "askerId", q.deleted_at is not null as "questionDeleted",
        an.ans_by as "answerAuthorId", an.deleted_at is not null as "answerDeleted"
      from comments c left join answers an on an.id = c.answer_id
        join questions q on q.id = coalesce(c.question_id, an.question_id)
      where c.id = ${commentId}`,
  );
  if (!row) return null;
  return {
    ...ownership(row),
    question: ownership({ authorId: row.askerId, deleted: row.questionDeleted, deletedBy: null }),
    answer:
      row.answerAuthorId === null
        ? null
        : ownership({ authorId: row.answerAuthorId, deleted: row.answerDeleted === true, deletedBy: null }),
  };
}
