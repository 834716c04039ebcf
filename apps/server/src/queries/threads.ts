import { PORPCHAT_THREAD_ID } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import type { HiddenPostsSeen } from '../policies/authorize.ts';
import type { ThreadAccess, ThreadKind } from '../policies/threads.ts';
import type { MessageRow } from '../presenters/thread.ts';

export interface ThreadRow extends ThreadAccess {
  accounts: string[];
  threadUpdatedDateTime: Date;
}

// How many of the newest messages a thread page loads.
const MESSAGE_PAGE = 500;

/** The key that keeps one direct thread per pair of accounts (threads_pair_key_key): 'lowId:highId'. */
export function directPairKey(oneId: number, otherId: number): string {
  return [oneId, otherId].sort((a, b) => a - b).join(':');
}

/** The id of the direct thread between two accounts; null while they have none. */
export async function directThreadId(db: Db, oneId: number, otherId: number): Promise<number | null> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`select id from threads where pair_key = ${directPairKey(oneId, otherId)}`,
  );
  return row ? Number(row.id) : null;
}

/** A thread by its API id ('porpchat' or a number), with its participants; null when missing. */
export async function findThread(db: Db, tid: string): Promise<ThreadRow | null> {
  const where = tid === PORPCHAT_THREAD_ID ? sql`t.kind = 'porpchat'` : sql`t.id = ${Number(tid)}`;
  const [row] = await queryRows<{
    id: number;
    kind: ThreadKind;
    updated: Date;
    ids: number[] | null;
    names: string[] | null;
  }>(
    db,
    sql`select t.id, t.kind, t.thread_updated_date_time as updated,
        array_agg(a.id order by a.username) filter (where a.id is not null) as ids,
        array_agg(a.username order by a.username) filter (where a.id is not null) as names
      from threads t
      left join thread_participants p on p.thread_id = t.id
      left join accounts a on a.id = p.account_id
      where ${where} group by t.id`,
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind,
    participantIds: (row.ids ?? []).map(Number),
    accounts: row.names ?? [],
    threadUpdatedDateTime: new Date(row.updated),
  };
}

const MESSAGE_COLUMNS = sql`m.id, m.content, m.sender_name as "senderName", m.message_date_time as "messageDateTime",
  m.sender_account_id as "senderAccountId", m.deleted_at is not null as deleted, m.held_for as "heldFor",
  coalesce((select array_agg(a.username order by a.username) from message_reads r join accounts a on a.id = r.account_id
    where r.message_id = m.id), '{}') as views,
  coalesce((select array_agg(a.username order by a.username) from message_likes l join accounts a on a.id = l.account_id
    where l.message_id = m.id), '{}') as likes`;

const normalise = (row: MessageRow): MessageRow => ({
  ...row,
  id: Number(row.id),
  senderAccountId: row.senderAccountId === null ? null : Number(row.senderAccountId),
});

/**
 * The newest messages of a thread, oldest first. A hidden one (held by flags, deleted by a
 * moderator) only for whoever `seen` lets see it: moderators, and the account that sent it.
 */
export async function listMessages(db: Db, threadId: number, seen: HiddenPostsSeen): Promise<MessageRow[]> {
  const shows = seen.all ? sql`true` : sql`(m.deleted_at is null or m.sender_account_id = ${seen.authorId})`;
  const rows = await queryRows<MessageRow>(
    db,
    sql`select * from (select ${MESSAGE_COLUMNS} from messages m where m.thread_id = ${threadId} and ${shows}
      order by m.id desc limit ${MESSAGE_PAGE}) newest order by id`,
  );
  return rows.map(normalise);
}

export async function getMessage(db: Db, messageId: number): Promise<(MessageRow & { threadId: number }) | null> {
  const [row] = await queryRows<MessageRow & { threadId: number }>(
    db,
    sql`select ${MESSAGE_COLUMNS}, m.thread_id as "threadId" from messages m where m.id = ${messageId}`,
  );
  return row ? { ...normalise(row), threadId: Number(row.threadId) } : null;
}

/** The direct threads of an account, newest activity first, each with only its last message. */
export async function listThreadsOf(
  db: Db,
  accountId: number,
): Promise<Array<{ thread: ThreadRow; last: MessageRow | null }>> {
  const threadIds = await queryRows<{ id: number }>(
    db,
    sql`select t.id from threads t join thread_participants p on p.thread_id = t.id
      where p.account_id = ${accountId} and t.kind = 'direct' order by t.thread_updated_date_time desc nulls last, t.id desc limit 200`,
  );
  return Promise.all(threadIds.map((row) => threadWithLastMessage(db, Number(row.id))));
}

/** One thread as its /threads row shows it; used for the list and for threadUpdate. */
export async function threadWithLastMessage(
  db: Db,
  threadId: number,
): Promise<{ thread: ThreadRow; last: MessageRow | null }> {
  const thread = await findThread(db, String(threadId));
  if (!thread) throw new Error(`thread ${threadId} vanished`);
  const [last] = await queryRows<MessageRow>(
    db,
    sql`select ${MESSAGE_COLUMNS} from messages m where m.thread_id = ${threadId} and m.deleted_at is null
      order by m.id desc limit 1`,
  );
  return { thread, last: last ? normalise(last) : null };
}

/** One forum's row. */
export async function getForumRow(db: Db, forumId: number) {
  const [row] = await queryRows<{ id: number; name: string; description: string; threadId: number | null }>(
    db,
    sql`select id, name, description, thread_id as "threadId" from forums where id = ${forumId}`,
  );
  return row ? { ...row, id: Number(row.id), threadId: row.threadId === null ? null : Number(row.threadId) } : null;
}

/** One page of forums, newest first; with `threadId`, only the forum of that discussion thread. */
export async function listForums(db: Db, page: { limit: number; offset: number; threadId?: number }) {
  const where = page.threadId === undefined ? sql`` : sql`where thread_id = ${page.threadId}`;
  return (
    await queryRows<{ id: number; name: string; description: string; threadId: number | null }>(
      db,
      sql`select id, name, description, thread_id as "threadId" from forums ${where}
        order by created_at desc nulls last, id desc limit ${page.limit} offset ${page.offset}`,
    )
  ).map((row) => ({ ...row, id: Number(row.id), threadId: row.threadId === null ? null : Number(row.threadId) }));
}
