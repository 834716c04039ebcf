import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { SessionInfo } from './lib/sessions.ts';
import type { Actor } from './policies/actor.ts';
import type { RateLimiter } from './plugins/rate-limit.ts';
import type { Realtime } from './realtime/realtime.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    rateLimiter: RateLimiter;
    realtime: Realtime;
  }
  interface FastifyRequest {
    session: SessionInfo | null;
    actor: Actor | null;
  }
}
