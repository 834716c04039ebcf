import { LIMITS, type FlagTarget } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import { decideReview, flagItem, suspendMember } from '../../commands/moderation.ts';
import type { FlagTargetRef } from '../../commands/moderation-log.ts';
import { route } from '../../http/contract-routes.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';
import type { Actor } from '../../policies/actor.ts';
import { authorize, type Resource } from '../../policies/authorize.ts';
import { presentLogEntry, presentReviewItem } from '../../presenters/moderation.ts';
import { getReviewQueue, listModerationLog } from '../../queries/moderation.ts';
import { visibleAnswer, visibleComment, visibleMessage, visibleQuestion } from '../../queries/visible-posts.ts';

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
    switch (targetType) {
      case 'question':
        return visibleQuestion(app.db, actor, targetId);
      case 'answer':
        return visibleAnswer(app.db, actor, targetId);
      case 'comment':
        return visibleComment(app.db, actor, targetId);
      case 'message':
        return visibleMessage(app.db, actor, targetId);
    }
  }

  const target = (body: { targetType: FlagTarget; targetId: string }): FlagTargetRef => ({
    targetType: body.targetType,
    targetId: Number(body.targetId),
  });

  // Counted as a vote is: flags are a member's cheap writes (docs/product.md section 6).
  const flagging = { bodyLimit: bodyLimitFor(LIMITS.flagNoteMax + 100), limit: 'flag' } as const;
  route(app, 'flag', flagging, async ({ actor, body }) => {
    const item = target(body);
    authorize(actor, 'flag', await flaggedResource(actor, item));
    const note = body.note?.trim() ? body.note.trim() : null;
    await app.events.write((tx) => flagItem(tx, actor, item, { reason: body.reason, note }));
    return { ok: true } as const;
  });

  route(app, 'reviewQueue', {}, async () => {
    const { items, open } = await getReviewQueue(app.db);
    return { items: items.map(presentReviewItem), open };
  });

  const deciding = { bodyLimit: bodyLimitFor(100) } as const;
  route(app, 'dismissReview', deciding, async ({ actor, body }) => {
    await app.events.write((tx) => decideReview(tx, actor, target(body), 'dismiss'));
    return { ok: true } as const;
  });
  route(app, 'deleteReviewed', deciding, async ({ actor, body }) => {
    await app.events.write((tx) => decideReview(tx, actor, target(body), 'delete'));
    return { ok: true } as const;
  });

  route(
    app,
    'suspendAccount',
    { bodyLimit: bodyLimitFor(LIMITS.suspensionReasonMax + 100) },
    async ({ actor, body }) => {
      const reason = body.reason.trim();
      const result = await app.events.write((tx) => suspendMember(tx, actor, { ...body, reason }));
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
