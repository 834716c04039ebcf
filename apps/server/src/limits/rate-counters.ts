import { MESSAGES } from '@porpoise/core';
import { sql, type SQL } from 'drizzle-orm';
import type { RateRule } from '../config.ts';
import { HttpError } from '../http/http-error.ts';

// Fixed-window rate-limit counters in SQL: the rate-limit plugin runs them alone, and a
// command may run them inside its own statement (see addAnswer).

/** One counter to bump and the rule it is held to. */
export interface RateHit {
  key: string;
  rule: RateRule;
}

/** What the counting statement returns for each key. */
export interface CountedHit {
  key: string;
  count: number;
  retry_ms: number;
}

/**
 * The statement that counts one hit on each key (fixed windows: a key past its window
 * starts again at 1), returning each key's count. Usable alone or as a CTE of a command's
 * own statement, so a write and its limit cost one round trip (see addAnswer).
 */
export function countHits(hits: RateHit[]): SQL {
  const values = sql.join(
    hits.map(({ key, rule }) => sql`(${key}, 1, now() + make_interval(secs => ${rule.windowMs / 1000}))`),
    sql`, `,
  );
  return sql`
    insert into rate_limits (key, count, reset_at)
    values ${values}
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning key, count, ceil(extract(epoch from (reset_at - now())) * 1000)::float8 as retry_ms`;
}

/** A condition on countHits's rows, read from the CTE `counted` names: true when no key is past its max. */
export function withinLimits(hits: RateHit[], counted: SQL): SQL {
  const over = sql.join(
    hits.map(({ key, rule }) => sql`(key = ${key} and count > ${rule.max}::bigint)`),
    sql` or `,
  );
  return sql`not exists (select 1 from ${counted} where ${over})`;
}

/** Past any rule's max: 429 with Retry-After (the longest wait among the keys past theirs). */
export function refuseOverLimit(hits: RateHit[], counted: CountedHit[]): void {
  let retryMs = 0;
  for (const row of counted) {
    const rule = hits.find((hit) => hit.key === row.key)?.rule;
    if (rule && Number(row.count) > rule.max) retryMs = Math.max(retryMs, Number(row.retry_ms));
  }
  if (retryMs > 0) {
    const retryAfter = Math.max(1, Math.ceil(retryMs / 1000));
    throw new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(retryAfter) });
  }
}
