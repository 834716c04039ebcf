import { PRIVILEGES, type PrivilegeKey } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import { queryPrepared, type Db } from '../db/client.ts';
import type { Standing } from '../policies/authorize.ts';
import { reputationOf } from './reputation.ts';

/** The privileges' thresholds as admins set them, each at its default until changed. */
export const thresholdsFrom = (rows: readonly { key: string; threshold: number }[]): Record<PrivilegeKey, number> => {
  const thresholds = Object.fromEntries(PRIVILEGES.map(({ key, threshold }) => [key, threshold])) as Record<
    PrivilegeKey,
    number
  >;
  for (const { key, threshold } of rows) if (key in thresholds) thresholds[key as PrivilegeKey] = Number(threshold);
  return thresholds;
};

/**
 * An account's reputation and the thresholds, read as they stand now (in the caller's
 * transaction when it has one): what the policies weigh a privilege by. One statement.
 */
export async function getStanding(db: Db, accountId: number): Promise<Standing> {
  const [row] = await queryPrepared<{ sum: string | number | null; thresholds: { key: string; threshold: number }[] }>(
    db,
    sql`select (select reputation_sum from accounts where id = ${accountId}) as sum,
      coalesce((select json_agg(json_build_object('key', key, 'threshold', threshold)) from privilege_thresholds), '[]') as thresholds`,
  );
  return { reputation: reputationOf(row?.sum ?? 0), thresholds: thresholdsFrom(row?.thresholds ?? []) };
}
