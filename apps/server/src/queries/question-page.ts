import { LIMITS, type HeldFor } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';
import type { StoredImage } from '../db/schema.ts';
import { PUBLIC_VIEW, type HiddenPostsSeen } from '../policies/authorize.ts';
import type { AnswerRow, ClosedRow, CommentRow, QuestionDetail, SummaryRow, TagRow } from '../presenters/question.ts';
import { answerVoters, editorOf, recentViewers, shows, SUMMARY_COLUMNS } from './question-sql.ts';
import { reputationSql } from './reputation.ts';

/** A comment as the one-statement page read gives it (JSON: its time is text). */
interface CommentJson {
  id: number;
  text: string;
  commentBy: string;
  commentDateTime: string;
  deletedAt: string | null;
  heldFor: HeldFor | null;
}

const commentsJson = (where: SQL, seen: HiddenPostsSeen) => sql`coalesce((select json_agg(json_build_object(
    'id', c.id, 'text', c.text, 'commentBy', ca.username, 'commentDateTime', c.comment_date_time,
    'deletedAt', c.deleted_at, 'heldFor', c.held_for)
    order by c.comment_date_time, c.id)
  from comments c join accounts ca on ca.id = c.comment_by
  where ${where} and ${shows(seen, sql`c.deleted_at`, sql`c.comment_by`)}), '[]')`;

/**
 * The authors of a question's deleted answers and comments (those under its answers too),
 * read only when it has some (hidden_count, kept by the deleting commands).
 */
const hiddenAuthorIds = sql`case when q.hidden_count = 0 then '{}'::bigint[] else array(
    select an.ans_by from answers an where an.question_id = q.id and an.deleted_at is not null
    union select c.comment_by from comments c where c.question_id = q.id and c.deleted_at is not null
    union select c.comment_by from comments c join answers an on an.id = c.answer_id
      where an.question_id = q.id and c.deleted_at is not null) end`;

/** Why, when and by whom the question was closed, with the original of a duplicate while it shows; null if open. */
const closedJson = sql`case when q.closed_at is null then null else json_build_object(
    'reason', q.close_reason, 'closedAt', q.closed_at, 'closedBy', ${editorOf(sql`q.closed_by`)},
    'duplicateOf', (select json_build_object('id', d.id, 'title', d.title) from questions d
      where d.id = q.duplicate_of and d.deleted_at is null)) end`;

const commentRow = (row: CommentJson): CommentRow => ({
  ...row,
  id: Number(row.id),
  commentDateTime: new Date(row.commentDateTime),
});

/**
 * Everything the question page shows, with its first page of answers (each with its
 * comments), in one statement: one round trip and one pool connection per page, which a
 * community's first views (a third of its requests) made seven. Deleted answers and
 * comments only as `seen` lets (the cached page is the public one); a deleted question is
 * read with its mark, and the caller decides who may see it.
 */
export async function getQuestionDetail(
  db: Db,
  questionId: number,
  seen: HiddenPostsSeen = PUBLIC_VIEW,
): Promise<QuestionDetail | null> {
  // Prepared: planning this statement took PostgreSQL 2-7 ms a call, running it 0.7-1.7 ms.
  const [row] = await queryPrepared<
    SummaryRow & {
      text: string;
      images: StoredImage[] | null;
      editedAt: string | null;
      editedBy: string | null;
      askerId: number;
      deletedAt: string | null;
      heldFor: HeldFor | null;
      closed: ClosedRow | null;
      closeVotes: number;
      askedByReputation: number;
      hiddenAuthorIds: Array<number | string>;
      tags: TagRow[];
      comments: CommentJson[];
      votes: Array<[string, number]>;
      views: string[];
      answers: Array<AnswerRow & { ansDateTime: string; comments: CommentJson[] }>;
    }
  >(
    db,
    sql`select ${SUMMARY_COLUMNS}, q.text, q.images, q.edited_at as "editedAt", ${editorOf(sql`q.edited_by`)} as "editedBy",
      q.asked_by as "askerId", q.deleted_at as "deletedAt", q.held_for as "heldFor", ${closedJson} as closed,
      q.close_votes as "closeVotes", ${hiddenAuthorIds} as "hiddenAuthorIds",
      coalesce((select json_agg(json_build_object('name', t.name, 'description', t.description) order by t.name)
        from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = q.id), '[]') as tags,
      ${commentsJson(sql`c.question_id = q.id`, seen)} as comments,
      coalesce((select json_agg(json_build_array(va.username, v.value))
        from votes v join accounts va on va.id = v.account_id where v.question_id = q.id), '[]') as votes,
      array(${recentViewers(sql`q.id`)}) as views,
      ${reputationSql(sql`a.reputation_sum`)} as "askedByReputation",
      coalesce((select json_agg(json_build_object('id', an.id, 'text', an.text, 'images', an.images, 'ansBy', an.ans_by_name,
          'ansByReputation', ${reputationSql(sql`an.ans_by_sum`)},
          'ansDateTime', an.ans_date_time, 'comments', ${commentsJson(sql`c.answer_id = an.id`, seen)},
          'upVotes', ${answerVoters(sql`an.id`, 1)}, 'downVotes', ${answerVoters(sql`an.id`, -1)},
          'editedAt', an.edited_at, 'editedBy', ${editorOf(sql`an.edited_by`)}, 'deletedAt', an.deleted_at,
          'heldFor', an.held_for)
          order by an.ans_date_time, an.id)
        from (select an.*, aa.username as ans_by_name, aa.reputation_sum as ans_by_sum from answers an join accounts aa on aa.id = an.ans_by
          where an.question_id = q.id and ${shows(seen, sql`an.deleted_at`, sql`an.ans_by`)}
          order by an.ans_date_time, an.id limit ${LIMITS.answerPageSize}) an), '[]') as answers
    from questions q join accounts a on a.id = q.asked_by where q.id = ${questionId}`,
  );
  if (!row) return null;
  const { tags, comments, votes, views, answers, ...question } = row;
  return {
    question: {
      ...question,
      id: Number(question.id),
      askerId: Number(question.askerId),
      hiddenAuthorIds: question.hiddenAuthorIds.map(Number),
      closed:
        question.closed === null
          ? null
          : {
              ...question.closed,
              duplicateOf:
                question.closed.duplicateOf === null
                  ? null
                  : { id: Number(question.closed.duplicateOf.id), title: question.closed.duplicateOf.title },
            },
      askDateTime: new Date(question.askDateTime),
      lastActivityAt: new Date(question.lastActivityAt),
    },
    tags,
    answers: answers.map((answer) => ({
      ...answer,
      id: Number(answer.id),
      ansDateTime: new Date(answer.ansDateTime),
      comments: answer.comments.map(commentRow),
    })),
    comments: comments.map(commentRow),
    upVotes: votes.filter(([, value]) => Number(value) > 0).map(([username]) => username),
    downVotes: votes.filter(([, value]) => Number(value) < 0).map(([username]) => username),
    views,
  };
}

/**
 * A question's closing (null while open) and the members' votes waiting to change it, for
 * closeUpdate and closeVoteUpdate; undefined when there is no such question, or it is deleted.
 */
export async function getClosing(
  db: Db,
  questionId: number,
): Promise<{ closed: ClosedRow | null; closeVotes: number } | undefined> {
  const [row] = await queryRows<{ closed: ClosedRow | null; closeVotes: number }>(
    db,
    sql`select ${closedJson} as closed, q.close_votes as "closeVotes" from questions q
      where q.id = ${questionId} and q.deleted_at is null`,
  );
  return row && { closed: row.closed, closeVotes: Number(row.closeVotes) };
}
