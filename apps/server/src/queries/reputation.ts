import { LIMITS } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';

/**
 * An account's reputation from the sum of its shown events (docs/product.md section 13): 1 more
 * than the sum, never below 1. `reputationOf` for a sum read, `reputationSql` in a statement.
 */
export const reputationOf = (sum: number | string | null): number => Math.max(1, 1 + Number(sum ?? 0));

/** reputationOf in SQL, of an accounts.reputation_sum column. */
export const reputationSql = (sum: SQL) => sql`greatest(1, 1 + ${sum})::int`;

/** A row of an account's reputation history. */
export interface ReputationEventRow {
  delta: number;
  reason: string;
  questionId: number | null;
  answerId: number | null;
  createdAt: Date | string;
}

/**
 * A member's reputation sum and the newest shown events of their history (docs/product.md
 * section 13): one range of the ledger's account index. Null for an unknown username.
 */
export async function getReputation(
  db: Db,
  username: string,
): Promise<{ username: string; sum: number; history: ReputationEventRow[] } | null> {
  const [account] = await queryPrepared<{ id: number; username: string; sum: number }>(
    db,
    sql`select id, username, reputation_sum as sum from accounts where lower(username) = lower(${username})`,
  );
  if (!account) return null;
  const history = await queryPrepared<ReputationEventRow>(
    db,
    sql`select delta, reason, question_id as "questionId", answer_id as "answerId", created_at as "createdAt"
      from reputation_events where account_id = ${account.id} and not hidden
      order by id desc limit ${LIMITS.reputationHistory}`,
  );
  return { username: account.username, sum: Number(account.sum), history };
}
