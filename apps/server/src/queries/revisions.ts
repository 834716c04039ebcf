import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import type { RevisionRow } from '../presenters/question.ts';

/**
 * A post's revisions, newest first; a post never edited has one, its original (kept as a
 * row only from its first edit on). Null when the post does not exist.
 */
export async function listRevisions(
  db: Db,
  post: { questionId: number } | { answerId: number },
): Promise<RevisionRow[] | null> {
  const owner = 'questionId' in post ? sql`r.question_id = ${post.questionId}` : sql`r.answer_id = ${post.answerId}`;
  const rows = await queryRows<RevisionRow>(
    db,
    sql`select r.revision, r.title, r.text, r.tags, a.username as "editedBy", r.edited_at as "editedAt", r.reason
      from revisions r join accounts a on a.id = r.edited_by where ${owner} order by r.revision desc`,
  );
  if (rows.length > 0) {
    return rows.map((row) => ({ ...row, revision: Number(row.revision), editedAt: new Date(row.editedAt) }));
  }
  const original = await queryRows<RevisionRow>(
    db,
    'questionId' in post
      ? sql`select 1 as revision, q.title, q.text,
          coalesce((select json_agg(json_build_object('name', t.name, 'description', t.description) order by t.name)
            from question_tags qt join tags t on t.id = qt.tag_id where qt.question_id = q.id), '[]') as tags,
          a.username as "editedBy", q.ask_date_time as "editedAt", null as reason
        from questions q join accounts a on a.id = q.asked_by where q.id = ${post.questionId}`
      : sql`select 1 as revision, null as title, an.text, null as tags, a.username as "editedBy",
          an.ans_date_time as "editedAt", null as reason
        from answers an join accounts a on a.id = an.ans_by where an.id = ${post.answerId}`,
  );
  if (original.length === 0) return null;
  return original.map((row) => ({ ...row, revision: 1, editedAt: new Date(row.editedAt) }));
}
