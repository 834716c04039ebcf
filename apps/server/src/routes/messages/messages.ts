import { LIMITS, MESSAGES } from '@porpoise/core';
import { porpNameInput } from '@porpoise/core/schemas';
import { nameSkeleton } from '@porpoise/core/skeleton';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { route } from '../../lib/contract-routes.ts';
import { markRead, postMessage } from '../../commands/threads.ts';
import { accounts } from '../../db/schema.ts';
import { addressKey } from '../../lib/client-address.ts';
import { conflict, notFound } from '../../lib/http-error.ts';
import { parse } from '../../lib/parse.ts';
import { assertNamesSelf, requireActor, type Actor } from '../../policies/actor.ts';
import { canMarkThreadRead, canPostToThread, canReadThread } from '../../policies/threads.ts';
import { presentMessage } from '../../presenters/thread.ts';
import { findThread, getMessage } from '../../queries/threads.ts';
import { limitPorpchat, limitPosting } from '../../lib/posting-limits.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';

export async function messageRoutes(app: FastifyInstance) {
  /**
   * PorpChat names are typed, not owned; a name that looks like a member's (case, confusables,
   * zero-width and bidi characters aside) is theirs alone, found through the skeleton index.
   */
  async function porpchatSender(actor: Actor | null, typed: string | undefined): Promise<string> {
    const name = parse(porpNameInput, typed ?? '');
    const skeleton = nameSkeleton(name);
    if (actor && nameSkeleton(actor.username) === skeleton) return actor.username;
    const [owner] = await app.db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.usernameSkeleton, skeleton))
      .limit(1);
    if (owner) throw conflict(MESSAGES.porpNameTaken);
    return name;
  }

  // Open to visitors (PorpChat). The content, and the sender twice (the spec's views: [sender]).
  const messageBodyLimit = bodyLimitFor(LIMITS.messageMax + 2 * LIMITS.porpNameMax);
  route(app, 'addMessage', { bodyLimit: messageBodyLimit }, async ({ body: input }, request) => {
    const thread = await findThread(app.db, input.tid);
    if (thread?.kind === 'porpchat') {
      await limitPorpchat(app, request.actor, addressKey(request.ip));
    } else {
      const actor = requireActor(request.actor);
      assertNamesSelf(actor, input.msg.sender);
      await limitPosting(app, actor, 'message');
    }
    if (!thread || !canPostToThread(request.actor, thread)) throw notFound('Thread not found');
    const senderName =
      thread.kind === 'porpchat'
        ? await porpchatSender(request.actor, input.msg.sender)
        : requireActor(request.actor).username;
    const { result: messageId, events } = await postMessage(app.db, {
      threadId: thread.id,
      senderAccountId: request.actor?.id ?? null,
      senderName,
      content: input.msg.content,
      readBySender: canMarkThreadRead(request.actor, thread),
    });
    await app.events.apply(events);
    const message = await getMessage(app.db, messageId);
    if (!message) throw new Error('message vanished after insert');
    return presentMessage(message, thread);
  });

  const readBodyLimit = bodyLimitFor(LIMITS.usernameMax);
  route(app, 'readMessage', { bodyLimit: readBodyLimit }, async ({ actor, body: input }) => {
    assertNamesSelf(actor, input.username);
    const message = await getMessage(app.db, Number(input.mid));
    const thread = message ? await findThread(app.db, String(message.threadId)) : null;
    if (!message || !thread || !canReadThread(actor, thread)) throw notFound('Message not found');
    if (canMarkThreadRead(actor, thread)) await markRead(app.db, actor.id, message.id);
    return { ok: true } as const;
  });
}
