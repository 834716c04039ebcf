import { MESSAGES } from '@porpoise/core';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RateRule } from '../config.ts';
import { queryRows, type Db } from '../db/client.ts';
import { HttpError } from '../lib/http-error.ts';

export interface RateLimiter {
  /** Counts one hit on `key`; past the rule's max it throws 429 with Retry-After. */
  hit(key: string, rule: RateRule): Promise<void>;
  /** Forgets a key (a successful sign-in clears that username's failures). */
  reset(key: string): Promise<void>;
}

/**
 * Fixed-window counters kept in the database, so every server process shares them
 * (product.md section 1: no counter that matters lives in one process's memory).
 */
export function createRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, rule) {
      const [row] = await queryRows<{ count: number; retry_ms: number }>(
        db,
        sql`
        insert into rate_limits (key, count, reset_at)
        values (${key}, 1, now() + make_interval(secs => ${rule.windowMs / 1000}))
        on conflict (key) do update set
          count = case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end,
          reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
        returning count, ceil(extract(epoch from (reset_at - now())) * 1000)::float8 as retry_ms`,
      );
      if (row && row.count > rule.max) {
        const retryAfter = Math.max(1, Math.ceil(Number(row.retry_ms) / 1000));
        throw new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(retryAfter) });
      }
    },
    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${key}`);
    },
  };
}

export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('rateLimiter', createRateLimiter(app.db));
    const sweep = setInterval(() => {
      app.db.execute(sql`delete from rate_limits where reset_at < now()`).catch(() => undefined);
    }, 10 * 60_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'rate-limit', dependencies: ['database'] },
);
