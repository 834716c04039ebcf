import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { createDirectThread, markLastRead } from '../../commands/threads.ts';
import { notFound } from '../../http/http-error.ts';
import { authorize, can, hiddenPostsSeenBy } from '../../policies/authorize.ts';
import { presentThread } from '../../presenters/thread.ts';
import { findThread, listMessages, listThreadsOf, threadWithLastMessage } from '../../queries/threads.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

/** Direct threads, and reading any thread the policy lets the caller see (spec section 7). */
export async function threadRoutes(app: FastifyInstance) {
  const namesActor = ({ query }: { query: { username?: string } }) => query.username;
  route(app, 'getThreads', { namesActor }, async ({ actor }) => {
    const rows = await listThreadsOf(app.db, actor.id);
    return rows.map(({ thread, last }) => presentThread(thread, last ? [last] : []));
  });

  // A visitor (PorpChat) names nobody; a member only themselves.
  route(app, 'getThreadById', { namesActor }, async ({ actor, params: { id } }) => {
    const thread = await findThread(app.db, id);
    // A thread the caller may not see answers exactly like a missing one.
    if (!thread) throw notFound('Thread not found');
    const resource = { type: 'thread', thread } as const;
    authorize(actor, 'read', resource);
    if (actor && can(actor, 'markRead', resource)) await markLastRead(app.db, actor.id, thread.id);
    return presentThread(thread, await listMessages(app.db, thread.id, hiddenPostsSeenBy(actor)));
  });

  // Two usernames: the sender's own and the recipient's.
  const bodyLimit = bodyLimitFor(2 * LIMITS.usernameMax);
  const starting = {
    bodyLimit,
    limit: 'thread',
    namesActor: ({ body }: { body: { accounts: string[] } }) => body.accounts[0],
  } as const;
  route(app, 'addThread', starting, async ({ actor, body: input }) => {
    const [, recipient] = input.accounts;
    const result = await app.events.settle(createDirectThread(app.db, actor, recipient ?? ''));
    const { thread, last } = await threadWithLastMessage(app.db, result.threadId);
    return presentThread(thread, last ? [last] : []);
  });
}
