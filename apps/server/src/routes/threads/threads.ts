import { LIMITS } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { createDirectThread, markLastRead } from '../../commands/threads.ts';
import { notFound } from '../../lib/http-error.ts';
import { limitPosting } from '../../lib/posting-limits.ts';
import { assertNamesSelf } from '../../policies/actor.ts';
import { canMarkThreadRead, canReadThread } from '../../policies/threads.ts';
import { presentThread } from '../../presenters/thread.ts';
import { findThread, listMessages, listThreadsOf, threadWithLastMessage } from '../../queries/threads.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

/** Direct threads, and reading any thread the policy lets the caller see (spec section 7). */
export async function threadRoutes(app: FastifyInstance) {
  route(app, 'getThreads', {}, async ({ actor, query }) => {
    assertNamesSelf(actor, query.username);
    const rows = await listThreadsOf(app.db, actor.id);
    return rows.map(({ thread, last }) => presentThread(thread, last ? [last] : []));
  });

  route(app, 'getThreadById', {}, async ({ params: { id }, query }, request) => {
    if (request.actor) assertNamesSelf(request.actor, query.username);
    const thread = await findThread(app.db, id);
    // A thread the caller may not see answers exactly like a missing one.
    if (!thread || !canReadThread(request.actor, thread)) throw notFound('Thread not found');
    if (canMarkThreadRead(request.actor, thread)) await markLastRead(app.db, request.actor.id, thread.id);
    return presentThread(thread, await listMessages(app.db, thread.id));
  });

  // Two usernames: the sender's own and the recipient's.
  const bodyLimit = bodyLimitFor(2 * LIMITS.usernameMax);
  route(app, 'addThread', { bodyLimit }, async ({ actor, body: input }) => {
    const [own, recipient] = input.accounts;
    assertNamesSelf(actor, own);
    await limitPosting(app, actor, 'thread');
    const { result, events } = await createDirectThread(app.db, actor, recipient ?? '');
    await app.events.apply(events);
    const { thread, last } = await threadWithLastMessage(app.db, result.threadId);
    return presentThread(thread, last ? [last] : []);
  });
}
