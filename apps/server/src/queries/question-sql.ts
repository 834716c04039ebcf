import { LIMITS } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import type { HiddenPostsSeen } from '../policies/authorize.ts';
import { reputationSql } from './reputation.ts';

// SQL shared by the question queries: a list row's columns, an answer's, who sees a deleted post.

export const SUMMARY_COLUMNS = sql`q.id, q.title, a.username as "askedBy", q.ask_date_time as "askDateTime",
  q.last_activity_at as "lastActivityAt", q.answer_count as "answerCount", q.view_count as "viewCount",
  q.up_count as "upCount", q.down_count as "downCount", q.accepted_answer_id as "acceptedAnswerId"`;

/** The name of a post's last editor (null when never edited). */
export const editorOf = (accountId: SQL) => sql`(select username from accounts where id = ${accountId})`;

/** The names of an answer's voters one way (1 up, -1 down), in the order they voted. */
export const answerVoters = (answerId: SQL, value: 1 | -1) =>
  sql`array(select va.username from answer_votes v join accounts va on va.id = v.account_id
    where v.answer_id = ${answerId} and v.value = ${sql.raw(String(value))} order by v.voted_at, va.id)`;

/**
 * Whether a post shows to a reader (docs/product.md section 9): it is not deleted, or the reader
 * sees every deleted post (a moderator) or wrote it. Parameters, not SQL text: one
 * prepared statement serves every reader.
 */
export const shows = (seen: HiddenPostsSeen, deletedAt: SQL, authorId: SQL) =>
  sql`(${deletedAt} is null or ${seen.all}::boolean or ${authorId} = ${seen.authorId}::bigint)`;

/** An answer's columns as AnswerRow has them, for a query over `answers an` joined to its author `a`. */
export const ANSWER_COLUMNS = sql`an.id, an.text, an.images, a.username as "ansBy", an.ans_date_time as "ansDateTime",
  ${reputationSql(sql`a.reputation_sum`)} as "ansByReputation",
  ${answerVoters(sql`an.id`, 1)} as "upVotes", ${answerVoters(sql`an.id`, -1)} as "downVotes",
  an.edited_at as "editedAt", ${editorOf(sql`an.edited_by`)} as "editedBy", an.deleted_at as "deletedAt",
  an.held_for as "heldFor"`;

/**
 * A question's most recent viewers (LIMITS.viewersShown), oldest of them first: a scan of
 * the (question, time) index from its newest end, however many have viewed it.
 */
export const recentViewers = (questionId: SQL) =>
  sql`select username from (
    select a.username, v.viewed_at from views v join accounts a on a.id = v.account_id
    where v.question_id = ${questionId} order by v.viewed_at desc limit ${LIMITS.viewersShown}
  ) recent order by viewed_at`;
