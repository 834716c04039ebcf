import { MESSAGES, type Outcome, type PrivilegeKey } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { inTransaction, queryPrepared, type Db } from '../db/client.ts';
import { notFound } from '../http/http-error.ts';
import type { Actor } from '../policies/actor.ts';
import { recordModeration } from './moderation-log.ts';

/**
 * An admin moves an account's reputation (docs/product.md section 13): logged with its reason
 * as a moderator's action; the ledger's row is written by the event processor with it
 * (events/reputation.ts). Answers the account's name.
 */
export async function adjustReputation(
  db: Db,
  admin: Actor,
  username: string,
  delta: number,
  reason: string,
): Promise<Outcome<{ username: string; accountId: number }>> {
  return inTransaction(db, async (tx) => {
    const [account] = await queryPrepared<{ id: number; username: string }>(
      tx,
      sql`select id, username from accounts where lower(username) = lower(${username})`,
    );
    if (!account) throw notFound(MESSAGES.userNotFound);
    const accountId = Number(account.id);
    const note = reason.trim();
    await recordModeration(tx, admin, {
      action: 'reputation',
      targetType: 'account',
      targetId: accountId,
      subjectId: accountId,
      reason: `${delta > 0 ? '+' : ''}${delta}: ${note}`,
    });
    return {
      result: { username: account.username, accountId },
      events: [{ type: 'reputationAdjusted', accountId, adminId: admin.id, delta, note }],
    };
  });
}

/** An admin sets privileges' thresholds (docs/product.md section 13); those not named keep theirs. */
export async function setPrivilegeThresholds(db: Db, thresholds: Partial<Record<PrivilegeKey, number>>): Promise<void> {
  const rows = Object.entries(thresholds).filter(([, threshold]) => threshold !== undefined);
  if (rows.length === 0) return;
  await queryPrepared(
    db,
    sql`insert into privilege_thresholds (key, threshold)
      select * from unnest(${sql.param(rows.map(([key]) => key))}::text[], ${sql.param(rows.map(([, value]) => value))}::int[])
      on conflict (key) do update set threshold = excluded.threshold`,
  );
}
