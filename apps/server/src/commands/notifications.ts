import { MESSAGES, LIMITS, type DigestFrequency, type Outcome } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import { badRequest } from '../http/http-error.ts';

/**
 * Marks an account's notifications read: these ids (another account's change nothing), or
 * all. The unread count moves by the shown ones marked; answers it as it is after.
 * No event: nothing cached shows who read what, and the owner's own page asked for it.
 */
export async function markNotificationsRead(
  db: Db,
  accountId: number,
  ids: readonly number[] | 'all',
): Promise<Outcome<number>> {
  const which = ids === 'all' ? sql`` : sql`and id = any(${sql.param(ids)}::bigint[])`;
  const [row] = await queryPrepared<{ count: number }>(
    db,
    sql`with marked as (
      update notifications set read_at = now()
      where account_id = ${accountId} and read_at is null ${which}
      returning hidden
    )
    update accounts set unread_notifications = unread_notifications - (select count(*) from marked where not hidden)
    where id = ${accountId}
    returning unread_notifications as count`,
  );
  const count = Number(row?.count ?? 0);
  return { result: count, events: [{ type: 'unreadNotificationsChanged', accountId, count }] };
}

/**
 * Follows a question, or stops following it (docs/product.md section 11): answers the state
 * after. The caller has checked the actor may see it.
 */
export async function toggleQuestionFollow(db: Db, accountId: number, questionId: number): Promise<boolean> {
  const [row] = await queryPrepared<{ following: boolean }>(
    db,
    sql`with removed as (
      delete from question_follows where question_id = ${questionId} and account_id = ${accountId} returning 1
    ), added as (
      insert into question_follows (question_id, account_id)
      select ${questionId}, ${accountId} where not exists (select 1 from removed)
      on conflict do nothing returning 1
    )
    select exists (select 1 from added) as following`,
  );
  return row?.following ?? false;
}

/**
 * Follows a tag (by name, any case), or stops following it; null when there is no such tag.
 * At most LIMITS.followedTagsMax: one more is refused. No event: the account's 'My tags'
 * pages are cached by the set of tags (a new set is a new key).
 */
export async function toggleTagFollow(db: Db, accountId: number, name: string): Promise<boolean | null> {
  const [row] = await queryPrepared<{ found: boolean; following: boolean; full: boolean }>(
    db,
    sql`with tag as (select id from tags where name = ${name.toLowerCase()}),
    removed as (
      delete from tag_follows where account_id = ${accountId} and tag_id = (select id from tag) returning 1
    ), counted as (
      select count(*) >= ${LIMITS.followedTagsMax} as at_most from tag_follows where account_id = ${accountId}
    ), added as (
      insert into tag_follows (account_id, tag_id)
      select ${accountId}, id from tag
      where not exists (select 1 from removed) and not (select at_most from counted)
      on conflict do nothing returning 1
    )
    select exists (select 1 from tag) as found, exists (select 1 from added) as following,
      not exists (select 1 from removed) and (select at_most from counted) as "full"`,
  );
  if (!row?.found) return null;
  if (row.full) throw badRequest(MESSAGES.followedTagsFull);
  return row.following;
}

/** Sets how often the account's digest comes. No event: only the digest job reads it. */
export async function setDigest(db: Db, accountId: number, digest: DigestFrequency): Promise<void> {
  await queryPrepared(db, sql`update accounts set digest = ${digest} where id = ${accountId}`);
}

/** Turns off the digest of the account this unsubscribe token belongs to; false when none does. */
export async function unsubscribeDigest(db: Db, token: string): Promise<boolean> {
  const rows = await queryPrepared<{ id: number }>(
    db,
    sql`update accounts set digest = 'off' where digest_token = ${token} returning id`,
  );
  return rows.length > 0;
}
