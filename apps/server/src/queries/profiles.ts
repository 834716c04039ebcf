import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { directThreadId } from './threads.ts';

export interface ProfileRow {
  id: number;
  username: string;
  bio: string;
  createdAt: Date;
  questionCount: number;
  answerCount: number;
  /** The direct thread between the viewer and this member; null when none, or on one's own profile. */
  threadId: number | null;
}

/**
 * A member's profile (docs/product.md section 5): name as stored, bio ('' when never written),
 * when they joined, and their posts that show to everyone (deleted and held ones left out,
 * an answer on a question that does not show too), counted from the member's own rows of
 * questions_asked_by_idx and answers_ans_by_idx, never a scan of every post. Null for an
 * unknown name.
 */
export async function getProfileDetail(db: Db, username: string, viewerId: number): Promise<ProfileRow | null> {
  const [row] = await queryRows<Omit<ProfileRow, 'threadId'>>(
    db,
    sql`select a.id, a.username, coalesce(p.bio, '') as bio, a.created_at as "createdAt",
        (select count(*) from questions q where q.asked_by = a.id and q.deleted_at is null)::int as "questionCount",
        (select count(*) from answers an join questions q on q.id = an.question_id
          where an.ans_by = a.id and an.deleted_at is null and q.deleted_at is null)::int as "answerCount"
      from accounts a left join profiles p on p.account_id = a.id
      where lower(a.username) = lower(${username})`,
  );
  if (!row) return null;
  const id = Number(row.id);
  const threadId = id === viewerId ? null : await directThreadId(db, viewerId, id);
  return { ...row, id, createdAt: new Date(row.createdAt), threadId };
}
