import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RateRule } from '../config.ts';
import { queryPrepared, type Db } from '../db/client.ts';
import { countHits, refuseOverLimit, type CountedHit, type RateHit } from '../limits/rate-counters.ts';

export interface RateLimiter {
  /** Counts one hit on `key`; past the rule's max it throws 429 with Retry-After. */
  hit(key: string, rule: RateRule): Promise<void>;
  /** Counts one hit on each key in one statement; past any rule's max, 429 as above. */
  hitEach(hits: RateHit[]): Promise<void>;
  /** Forgets a key (a successful sign-in clears that username's failures). */
  reset(key: string): Promise<void>;
  /** Takes back one hit on a key (a sign-in attempt whose password proved right). */
  refund(key: string): Promise<void>;
}

/**
 * Fixed-window counters kept in the database, so every server process shares them
 * (docs/product.md section 1: no counter that matters lives in one process's memory).
 */
export function createRateLimiter(db: Db): RateLimiter {
  async function hitEach(hits: RateHit[]): Promise<void> {
    refuseOverLimit(hits, await queryPrepared<CountedHit>(db, countHits(hits)));
  }
  return {
    hit: (key, rule) => hitEach([{ key, rule }]),
    hitEach,
    async reset(key) {
      await db.execute(sql`delete from rate_limits where key = ${key}`);
    },
    async refund(key) {
      await db.execute(sql`update rate_limits set count = count - 1 where key = ${key} and count > 0`);
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
