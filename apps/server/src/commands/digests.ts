import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { listNotificationsSince, topQuestionsInFollowedTags, type DigestQuestion } from '../queries/digests.ts';
import type { NotificationRow } from '../queries/notifications.ts';

/** One account's digest, claimed (its last digest is now) and ready to be mailed. */
export interface Digest {
  accountId: number;
  username: string;
  email: string;
  /** Its one-click unsubscribe token. */
  token: string;
  notifications: NotificationRow[];
  questions: DigestQuestion[];
}

/** Accounts claimed per statement: a run over 100,000 accounts holds at most this many at once. */
const BATCH = 200;

/**
 * The digest's due-ness (docs/product.md section 11), in SQL over `a` (accounts): not off, not
 * suspended, its period (a day or a week) passed since its last digest or it never had one,
 * and something to say since then: an unread, shown notification, or a question asked in a
 * tag it follows within the week.
 */
const DUE = sql`a.digest <> 'off'
  and coalesce(a.suspended_until <= now(), true)
  and (a.last_digest_at is null
    or a.last_digest_at <= now() - case a.digest when 'daily' then interval '1 day' else interval '7 days' end)
  and (exists (
      select 1 from notifications n
      where n.account_id = a.id and not n.hidden and n.read_at is null
        and n.created_at > coalesce(a.last_digest_at, '-infinity'::timestamptz))
    or exists (
      select 1 from tag_follows f join question_tags qt on qt.tag_id = f.tag_id
      where f.account_id = a.id and not qt.deleted
        and qt.ask_date_time > greatest(coalesce(a.last_digest_at, '-infinity'::timestamptz), now() - interval '7 days')))`;

/**
 * Claims every due digest, a batch of accounts at a time in id order, and hands each to
 * `send` (after its batch commits). A claim sets the account's last digest to now in the
 * statement that finds it due, and rows another process has claimed are skipped (`skip
 * locked`) or no longer due once it commits: two processes never send the same digest.
 * `beforeBatch` runs before each claim (the mailer's back-pressure). Answers how many were sent.
 */
export async function sendDueDigests(
  db: Db,
  send: (digest: Digest) => void,
  beforeBatch: () => Promise<void> = async () => undefined,
): Promise<number> {
  let after = 0;
  let sent = 0;
  for (;;) {
    await beforeBatch();
    // The batch's next accounts in id order (due or not, so the cursor moves past the others).
    const [range] = await queryRows<{ last: number | null }>(
      db,
      sql`select max(id) as last from (select id from accounts where id > ${after} order by id limit ${BATCH}) batch`,
    );
    if (range?.last == null) return sent;
    const last = Number(range.last);
    const claimed = await queryRows<{ id: number; username: string; email: string; token: string; since: Date | null }>(
      db,
      sql`with due as (
        select a.id, a.last_digest_at as since from accounts a
        where a.id > ${after} and a.id <= ${last} and ${DUE}
        for update skip locked
      )
      update accounts a set last_digest_at = now(),
        digest_token = coalesce(a.digest_token, replace(gen_random_uuid()::text, '-', ''))
      from due where a.id = due.id
      returning a.id, a.username, a.email, a.digest_token as token, due.since`,
    );
    after = last;
    for (const row of claimed) {
      const since = row.since === null ? null : new Date(row.since);
      const [notifications, questions] = await Promise.all([
        listNotificationsSince(db, Number(row.id), since),
        topQuestionsInFollowedTags(db, Number(row.id), since),
      ]);
      send({
        accountId: Number(row.id),
        username: row.username,
        email: row.email,
        token: row.token,
        notifications,
        questions,
      });
      sent += 1;
    }
  }
}

/** Read notifications older than 180 days leave (docs/product.md section 11), a thousand at a time. */
export async function sweepReadNotifications(db: Db): Promise<number> {
  let swept = 0;
  for (;;) {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`delete from notifications where id in (
        select id from notifications where read_at is not null and created_at < now() - interval '180 days' limit 1000)
      returning id`,
    );
    swept += rows.length;
    if (rows.length < 1000) return swept;
  }
}
