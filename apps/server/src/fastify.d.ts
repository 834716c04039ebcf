import type { Config } from './config.ts';
import type { EventProcessor } from './events/processor.ts';
import type { Database, Db } from './db/client.ts';
import type { SessionInfo, SessionStore } from './auth/sessions.ts';
import type { Actor } from './policies/actor.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './plugins/metrics.ts';
import type { ContentCache } from './cache/content-cache.ts';
import type { Signals } from './cache/signals.ts';
import type { RateLimiter } from './plugins/rate-limit.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { Backups } from './plugins/backups.ts';
import type { DigestRunner } from './plugins/digests.ts';
import type { Uploads } from './plugins/uploads.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    rateLimiter: RateLimiter;
    realtime: Realtime;
    signals: Signals;
    sessions: SessionStore;
    contentCache: ContentCache;
    metrics: Metrics;
    events: EventProcessor;
    mailer: Mailer;
    digests: DigestRunner;
    backups: Backups;
    uploads: Uploads;
  }
  interface FastifyRequest {
    session: SessionInfo | null;
    actor: Actor | null;
  }
}
