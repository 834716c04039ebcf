import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { serializeRequest } from './http/log-redaction.ts';
import { trustFunction } from './auth/client-address.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodiesPlugin } from './plugins/bodies.ts';
import { connectionsPlugin } from './plugins/connections.ts';
import { databasePlugin } from './plugins/database.ts';
import { docsRoutes } from './routes/docs/docs.ts';
import { useContract } from './http/contract-routes.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { readLimitPlugin } from './plugins/read-limit.ts';
import { securityPlugin } from './plugins/security.ts';
import { webPlugin } from './plugins/web.ts';
import { readCachePlugin } from './plugins/read-cache.ts';
import { signalsPlugin } from './plugins/signals.ts';
import { eventsPlugin } from './events/processor.ts';
import { backupsPlugin } from './plugins/backups.ts';
import { digestsPlugin } from './plugins/digests.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { realtimePlugin } from './realtime/realtime.ts';
import { mailPlugin } from './plugins/mail.ts';
import { accountRoutes } from './routes/account/account.ts';
import { adminRoutes } from './routes/admin/admin.ts';
import { backupRoutes } from './routes/admin/backups.ts';
import { answerRoutes } from './routes/answers/answers.ts';
import { commentRoutes } from './routes/comments/comments.ts';
import { forumRoutes } from './routes/forums/forums.ts';
import { healthRoutes } from './routes/health/health.ts';
import { messageRoutes } from './routes/messages/messages.ts';
import { moderationRoutes } from './routes/moderation/moderation.ts';
import { threadRoutes } from './routes/threads/threads.ts';
import { profileRoutes } from './routes/profile/profile.ts';
import { questionRoutes } from './routes/questions/questions.ts';
import { tagRoutes } from './routes/tags/tags.ts';
import { notificationRoutes } from './routes/notifications/notifications.ts';
import { uploadRoutes } from './routes/uploads/uploads.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  /** false silences logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean;
  /** Where log lines go (default stdout); tests read them to prove secrets stay out. */
  logStream?: NodeJS.WritableStream;
}

const ONE_MEGABYTE = 1024 * 1024;

/** Builds the whole app without listening, so tests can inject requests or listen on port 0. */
/** Uncached API answers up to this size are compressed on the event loop, larger ones off it. */
const COMPRESS_IN_PLACE_MAX_BYTES = 32 * 1024;

export async function buildApp({ config, database, logger = true, logStream }: BuildOptions): Promise<FastifyInstance> {
  const timeouts = config.connections;
  const app = Fastify({
    logger: logger
      ? {
          level: config.logLevel,
          ...(logStream ? { stream: logStream } : {}),
          // Never a password, cookie or token in a log line.
          redact: {
            paths: [
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
              '*.password',
              '*.token',
            ],
            censor: '[redacted]',
          },
          // A mailed link's token is in its page's URL (/reset-password?token=...).
          serializers: { req: serializeRequest },
        }
      : false,
    bodyLimit: ONE_MEGABYTE,
    // Slow senders cannot hold a connection (docs/product.md section 6): headers, whole request,
    // keep-alive and idle each have a timeout; Node answers a late request 408 and closes it.
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionTimeout: timeouts.idleTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Node checks the two timeouts above this often (its default, 30 s, would let a slow
      // request live up to 30 s past its timeout).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeoutMs),
    },
    // A function, so hop counts and address lists both mean what docs/product.md section 6 says.
    trustProxy: config.trustProxy === false ? false : trustFunction(config.trustProxy),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorate('config', config);
  // While shutting down, answers in flight also close their keep-alive connection, so the
  // server stops as soon as they are done instead of waiting for clients to hang up.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request take a callback, not a promise: they never wait on anything.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });

  // external -> app plugins -> routes
  await app.register(connectionsPlugin);
  await app.register(errorsPlugin);
  await app.register(databasePlugin, { database });
  await app.register(securityPlugin);
  await app.register(bodiesPlugin);
  await app.register(readLimitPlugin);
  await app.register(signalsPlugin);
  await app.register(readCachePlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(realtimePlugin);
  await app.register(mailPlugin);
  await app.register(eventsPlugin);
  await app.register(digestsPlugin);
  await app.register(uploadsPlugin);
  await app.register(backupsPlugin);
  await app.register(metricsPlugin);

  await app.register(
    async (api) => {
      // Before the routes, so each gets its hook. JSON of 1 KB or more goes out br or gzip
      // by Accept-Encoding, brotli at quality 4 (the library's default, 11 is for build
      // time): up to 32 KB in place (under about 0.2 ms, less of the event loop's time than
      // a zlib stream costs it), larger through zlib's streams in the threadpool; a body
      // already compressed (JsonBody's cached gzip) is left as is.
      await api.register(fastifyCompress, {
        encodings: ['br', 'gzip'],
        threshold: 1_024,
        syncThreshold: COMPRESS_IN_PLACE_MAX_BYTES,
      });
      // Every route's input and answer are checked against the contract's schemas.
      useContract(api);
      await api.register(healthRoutes);
      await api.register(accountRoutes);
      await api.register(questionRoutes);
      await api.register(answerRoutes);
      await api.register(uploadRoutes);
      await api.register(adminRoutes);
      await api.register(backupRoutes);
      await api.register(moderationRoutes);
      await api.register(commentRoutes);
      await api.register(tagRoutes);
      await api.register(notificationRoutes);
      await api.register(profileRoutes);
      await api.register(threadRoutes);
      await api.register(messageRoutes);
      await api.register(forumRoutes);
      await api.register(docsRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(webPlugin, { webDistDir: config.webDistDir });
  return app;
}
