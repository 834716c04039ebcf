import { LIMITS, MESSAGES } from '@porpoise/core';
import { memberWithSkeleton } from '../../queries/accounts.ts';
import { porpNameInput } from '@porpoise/core/schemas';
import { nameSkeleton } from '@porpoise/core/skeleton';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { markRead, postMessage } from '../../commands/threads.ts';
import { addressKey } from '../../auth/client-address.ts';
import { conflict, notFound } from '../../http/http-error.ts';
import { parse } from '../../http/parse.ts';
import { assertNamesSelf, requireActor, type Actor } from '../../policies/actor.ts';
import { authorize, can } from '../../policies/authorize.ts';
import { presentMessage } from '../../presenters/thread.ts';
import { findThread, getMessage } from '../../queries/threads.ts';
import { readableMessage } from '../../queries/visible-posts.ts';
import { limitPorpchat, limitPosting } from '../../limits/posting-limits.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

export async function messageRoutes(app: FastifyInstance) {
  /**
   * PorpChat names are typed, not owned; a name that looks like a member's (case, confusables,
   * zero-width and bidi characters aside) is theirs alone, found through the skeleton index.
   */
  async function porpchatSender(actor: Actor | null, typed: string | undefined): Promise<string> {
    const name = parse(porpNameInput, typed ?? '');
    const skeleton = nameSkeleton(name);
    if (actor && nameSkeleton(actor.username) === skeleton) return actor.username;
    if (await memberWithSkeleton(app.db, skeleton)) throw conflict(MESSAGES.porpNameTaken);
    return name;
  }

  // Open to visitors (PorpChat). The content, and the sender twice (the spec's views: [sender]).
  const messageBodyLimit = bodyLimitFor(LIMITS.messageMax + 2 * LIMITS.porpNameMax);
  // Which limits count and who the sender is depend on the thread: PorpChat's are per client
  // and its sender a typed name; elsewhere the member's own, who may name only themselves.
  route(app, 'addMessage', { bodyLimit: messageBodyLimit }, async ({ actor, body: input }, request) => {
    const thread = await findThread(app.db, input.tid);
    if (thread?.kind === 'porpchat') {
      await limitPorpchat(app, actor, addressKey(request.ip));
    } else {
      assertNamesSelf(requireActor(actor), input.msg.sender);
      await limitPosting(app, requireActor(actor), 'message');
    }
    if (!thread) throw notFound('Thread not found');
    const resource = { type: 'thread', thread } as const;
    authorize(actor, 'post', resource);
    const senderName =
      thread.kind === 'porpchat' ? await porpchatSender(actor, input.msg.sender) : requireActor(actor).username;
    const messageId = await app.events.write((tx) =>
      postMessage(tx, {
        threadId: thread.id,
        senderAccountId: actor?.id ?? null,
        senderName,
        content: input.msg.content,
        readBySender: can(actor, 'markRead', resource),
      }),
    );
    const message = await getMessage(app.db, messageId);
    if (!message) throw new Error('message vanished after insert');
    return presentMessage(message, thread);
  });

  /**
   * Joining PorpChat: the name is refused at once, beside the field (docs/product.md section 5),
   * by the rule posting applies again. Its answer tells whether a username exists, so it is
   * limited per address like registration (10 an hour), counted before anything is looked up.
   */
  route(
    app,
    'checkPorpName',
    {
      bodyLimit: bodyLimitFor(LIMITS.porpNameMax),
      limit: async (request) =>
        app.rateLimiter.hit(
          `porpchat-name:ip:${addressKey(request.ip)}`,
          app.config.rateLimits.porpchatNameChecksPerAddress,
        ),
    },
    async ({ actor, body }) => {
      await porpchatSender(actor, body.name);
      return { ok: true } as const;
    },
  );

  const readBodyLimit = bodyLimitFor(LIMITS.usernameMax);
  const reading = {
    bodyLimit: readBodyLimit,
    namesActor: ({ body }: { body: { username?: string } }) => body.username,
  };
  route(app, 'readMessage', reading, async ({ actor, body: input }) => {
    const messageId = Number(input.mid);
    const { thread } = await readableMessage(app.db, actor, messageId);
    if (can(actor, 'markRead', { type: 'thread', thread })) await markRead(app.db, actor.id, messageId);
    return { ok: true } as const;
  });
}
