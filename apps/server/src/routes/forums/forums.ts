import { LIMITS, PORPCHAT_THREAD_ID } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { createForum } from '../../commands/threads.ts';
import { presentForum } from '../../presenters/thread.ts';
import { listForums } from '../../queries/threads.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

/**
 * Forums are public to signed-in users; creating one creates its discussion thread. The list
 * comes a page at a time, and creating counts toward the poster's limits (docs/product.md section 6).
 */
export async function forumRoutes(app: FastifyInstance) {
  route(app, 'getForums', { namesActor: ({ query }) => query.username }, async ({ query }) => {
    // PorpChat's thread is no forum's.
    if (query.thread === PORPCHAT_THREAD_ID) return [];
    const threadId = query.thread === undefined ? undefined : Number(query.thread);
    return (await listForums(app.db, { ...query, threadId })).map(presentForum);
  });

  const bodyLimit = bodyLimitFor(LIMITS.forumNameMax + LIMITS.forumDescriptionMax);
  route(app, 'addForum', { bodyLimit, limit: 'forum' }, async ({ actor, body: input }) => {
    const row = await app.events.settle(createForum(app.db, actor, input.name, input.description));
    return presentForum(row);
  });
}
