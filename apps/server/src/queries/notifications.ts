import { sql, type SQL } from 'drizzle-orm';
import { queryPrepared, queryRows, type Db } from '../db/client.ts';

/** A notification as its list reads it: the ids it names and the text its snippet is cut from. */
export interface NotificationRow {
  id: number;
  accountId: number;
  kind: string;
  actor: string;
  questionId: number | null;
  answerId: number | null;
  threadId: number | null;
  createdAt: Date;
  read: boolean;
  /** The post's start (Markdown), or null for a question (its title is the snippet). */
  postText: string | null;
  /** Inline Markdown (a comment or message) rather than a whole post. */
  inline: boolean;
  /** The question's title, or the forum's name; null for a direct thread. */
  title: string | null;
}

/**
 * The columns of a NotificationRow. The post is the comment if there is one, else the
 * answer, else the message, else the question: only its first 600 characters are read,
 * enough for a snippet.
 */
const COLUMNS = sql`n.id, n.account_id as "accountId", n.kind, actor.username as actor, n.question_id as "questionId",
  n.answer_id as "answerId", n.thread_id as "threadId", n.created_at as "createdAt", n.read_at is not null as read,
  left(coalesce(c.text, case when n.comment_id is null then a.text end, m.content), 600) as "postText",
  n.comment_id is not null or n.message_id is not null as inline,
  coalesce(q.title, f.name) as title`;

const JOINS = sql`join accounts actor on actor.id = n.actor_id
  left join questions q on q.id = n.question_id
  left join answers a on a.id = n.answer_id
  left join comments c on c.id = n.comment_id
  left join messages m on m.id = n.message_id
  left join forums f on f.thread_id = n.thread_id`;

/**
 * The notifications `source` holds (a table or a CTE with the notifications' columns, such as
 * an insert's `returning *`) as listed, each with whether it is hidden: a new notification is
 * presented from the statement that writes it, with no read after.
 */
export const notificationRowsFrom = (source: SQL) => sql`select ${COLUMNS}, n.hidden from ${source} n ${JOINS}`;

/** Rows as the drivers return them (ids as strings on PostgreSQL), as NotificationRow has them. */
export const normalised = <R extends NotificationRow>(rows: R[]): R[] =>
  rows.map((row) => ({
    ...row,
    id: Number(row.id),
    accountId: Number(row.accountId),
    questionId: row.questionId === null ? null : Number(row.questionId),
    answerId: row.answerId === null ? null : Number(row.answerId),
    threadId: row.threadId === null ? null : Number(row.threadId),
    createdAt: new Date(row.createdAt),
  }));

/** A page of an account's shown notifications, newest first, older than `before` if given: one range of its index. */
export async function listNotifications(
  db: Db,
  accountId: number,
  limit: number,
  before: number | null,
): Promise<NotificationRow[]> {
  const older: SQL = before === null ? sql`` : sql`and id < ${before}`;
  const rows = await queryPrepared<NotificationRow>(
    db,
    sql`select ${COLUMNS} from (
        select * from notifications where account_id = ${accountId} and not hidden ${older}
        order by id desc nulls last limit ${limit}
      ) n ${JOINS} order by n.id desc`,
  );
  return normalised(rows);
}

/** These notifications, shown ones only (for their delivery after the write that made them). */
export async function notificationsByIds(db: Db, ids: readonly number[]): Promise<NotificationRow[]> {
  if (ids.length === 0) return [];
  const rows = await queryRows<NotificationRow>(
    db,
    sql`select ${COLUMNS} from notifications n ${JOINS}
      where n.id = any(${sql.param(ids)}::bigint[]) and not n.hidden order by n.id`,
  );
  return normalised(rows);
}

/** The account's unread count, as kept. */
export async function unreadCount(db: Db, accountId: number): Promise<number> {
  const [row] = await queryPrepared<{ count: number }>(
    db,
    sql`select unread_notifications as count from accounts where id = ${accountId}`,
  );
  return Number(row?.count ?? 0);
}

/** The names of the tags an account follows, by name. */
export async function followedTagNames(db: Db, accountId: number): Promise<string[]> {
  const rows = await queryPrepared<{ name: string }>(
    db,
    sql`select t.name from tag_follows f join tags t on t.id = f.tag_id where f.account_id = ${accountId} order by t.name`,
  );
  return rows.map((row) => row.name);
}

/** Whether an account follows a question. */
export async function followsQuestion(db: Db, accountId: number, questionId: number): Promise<boolean> {
  const rows = await queryPrepared<{ one: number }>(
    db,
    sql`select 1 as one from question_follows where question_id = ${questionId} and account_id = ${accountId}`,
  );
  return rows.length > 0;
}
