import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { notificationsByIds, type NotificationRow } from './notifications.ts';

/** A digest's question: the week's top ones in the tags an account follows. */
export interface DigestQuestion {
  id: number;
  title: string;
  score: number;
  answerCount: number;
}

/** A digest lists at most this many notifications and questions. */
const DIGEST_NOTIFICATIONS = 20;
const DIGEST_QUESTIONS = 5;

/** An account's unread, shown notifications since its last digest (all of them when it had none), newest first. */
export async function listNotificationsSince(
  db: Db,
  accountId: number,
  since: Date | null,
): Promise<NotificationRow[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from notifications
      where account_id = ${accountId} and not hidden and read_at is null
        and created_at > coalesce(${since?.toISOString() ?? null}::timestamptz, '-infinity'::timestamptz)
      order by id desc nulls last limit ${DIGEST_NOTIFICATIONS}`,
  );
  return (
    await notificationsByIds(
      db,
      rows.map((row) => Number(row.id)),
    )
  ).reverse();
}

/**
 * The week's top questions (by score, then answers, then views) in the tags an account
 * follows, asked since its last digest.
 */
export async function topQuestionsInFollowedTags(
  db: Db,
  accountId: number,
  since: Date | null,
): Promise<DigestQuestion[]> {
  const rows = await queryRows<DigestQuestion>(
    db,
    sql`select q.id, q.title, q.up_count - q.down_count as score, q.answer_count as "answerCount"
      from questions q
      where q.deleted_at is null and q.id in (
        select qt.question_id from tag_follows f join question_tags qt on qt.tag_id = f.tag_id
        where f.account_id = ${accountId} and not qt.deleted
          and qt.ask_date_time > greatest(coalesce(${since?.toISOString() ?? null}::timestamptz, '-infinity'::timestamptz),
            now() - interval '7 days'))
      order by q.up_count - q.down_count desc, q.answer_count desc, q.view_count desc, q.id desc
      limit ${DIGEST_QUESTIONS}`,
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    score: Number(row.score),
    answerCount: Number(row.answerCount),
  }));
}
