import { LIMITS, type FlagTarget } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { decideReview, flagItem, suspendMember } from '../../commands/moderation.ts';
import type { FlagTargetRef } from '../../commands/moderation-log.ts';
import { route } from '../../lib/contract-routes.ts';
import { notFound } from '../../lib/http-error.ts';
import { bodyLimitFor } from '../../lib/request-bodies.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize, can, refuseHidden, type Resource } from '../../policies/authorize.ts';
import { presentLogEntry, presentReviewItem } from '../../presenters/moderation.ts';
import { getReviewQueue, listModerationLog } from '../../queries/moderation.ts';
import { getAnswerOwnership, getCommentOwnership, getQuestionOwnership } from '../../queries/questions.ts';
import { findThread, getMessage } from '../../queries/threads.ts';

/**
 * Flags, the review queue, suspensions and the moderation log (docs/product.md section 10).
 * The contract makes every route here but the flag moderators' and admins' only.
 */
export async function moderationRoutes(app: FastifyInstance) {
  /**
   * The item as the flagging member may see it, as a resource the policy judges: an item
   * hidden from them (or under a post hidden from them) is not there (404).
   */
  async function flaggedResource(actor: Actor, { targetType, targetId }: FlagTargetRef): Promise<Resource> {
    const missing = notFound(`${targetType[0]?.toUpperCase()}${targetType.slice(1)} not found`);
    switch (targetType) {
      case 'question': {
        const question = await getQuestionOwnership(app.db, targetId);
        if (!question) throw missing;
        const resource = { type: 'question', askerId: question.askerId } as const;
        refuseHidden(actor, resource, question.deleted);
        return resource;
      }
      case 'answer': {
        const answer = await getAnswerOwnership(app.db, targetId);
        if (!answer) throw missing;
        refuseHidden(actor, { type: 'question', askerId: answer.question.authorId }, answer.question.deleted);
        const resource = { type: 'answer', authorId: answer.authorId } as const;
        refuseHidden(actor, resource, answer.deleted);
        return resource;
      }
      case 'comment': {
        const comment = await getCommentOwnership(app.db, targetId);
        if (!comment) throw missing;
        refuseHidden(actor, { type: 'question', askerId: comment.question.authorId }, comment.question.deleted);
        if (comment.answer) {
          refuseHidden(actor, { type: 'answer', authorId: comment.answer.authorId }, comment.answer.deleted);
        }
        const resource = { type: 'comment', authorId: comment.authorId } as const;
        refuseHidden(actor, resource, comment.deleted);
        return resource;
      }
      case 'message': {
        const message = await getMessage(app.db, targetId);
        const thread = message ? await findThread(app.db, String(message.threadId)) : null;
        // A message in a thread the member may not read is not there.
        if (!message || !thread || !can(actor, 'read', { type: 'thread', thread })) throw missing;
        const resource = { type: 'message', senderId: message.senderAccountId, thread } as const;
        refuseHidden(actor, resource, message.deleted);
        return resource;
      }
    }
  }

  const target = (body: { targetType: FlagTarget; targetId: string }): FlagTargetRef => ({
    targetType: body.targetType,
    targetId: Number(body.targetId),
  });

  // Counted as a vote is: flags are a member's cheap writes (docs/product.md section 6).
  const flagging = { bodyLimit: bodyLimitFor(LIMITS.flagNoteMax + 100), limit: 'vote' } as const;
  route(app, 'flag', flagging, async ({ actor, body }) => {
    const item = target(body);
    authorize(actor, 'flag', await flaggedResource(actor, item));
    const note = body.note?.trim() ? body.note.trim() : null;
    await app.events.settle(flagItem(app.db, actor, item, { reason: body.reason, note }));
    return { ok: true } as const;
  });

  route(app, 'reviewQueue', {}, async () => {
    const { items, open } = await getReviewQueue(app.db);
    return { items: items.map(presentReviewItem), open };
  });

  const deciding = { bodyLimit: bodyLimitFor(100) } as const;
  route(app, 'dismissReview', deciding, async ({ actor, body }) => {
    await app.events.settle(decideReview(app.db, actor, target(body), 'dismiss'));
    return { ok: true } as const;
  });
  route(app, 'deleteReviewed', deciding, async ({ actor, body }) => {
    await app.events.settle(decideReview(app.db, actor, target(body), 'delete'));
    return { ok: true } as const;
  });

  route(
    app,
    'suspendAccount',
    { bodyLimit: bodyLimitFor(LIMITS.suspensionReasonMax + 100) },
    async ({ actor, body }) => {
      const reason = body.reason.trim();
      const result = await app.events.settle(suspendMember(app.db, actor, { ...body, reason }));
      return {
        username: result.username,
        suspendedUntil: result.suspendedUntil === null ? null : result.suspendedUntil.toISOString(),
      };
    },
  );

  route(app, 'moderationLog', {}, async ({ query }) => {
    const rows = await listModerationLog(app.db, query.before === undefined ? null : Number(query.before));
    return rows.map(presentLogEntry);
  });
}
