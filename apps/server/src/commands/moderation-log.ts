import type { FlagTarget } from '@porpoise/core';
import type { MODERATION_ACTIONS } from '@porpoise/core/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { flags, moderationLog } from '../db/schema.ts';
import type { Actor } from '../policies/actor.ts';
import type { FlagTargetRef } from '../queries/moderation.ts';

// FlagTargetRef lives with the queries that read flagged items (queries do not import commands).
export type { FlagTargetRef };

export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface ModerationEntry {
  action: ModerationAction;
  targetType: FlagTarget | 'account';
  targetId: number;
  /** The account it concerned: a post's author, a suspended member; null for an anonymous message. */
  subjectId: number | null;
  reason?: string | null;
}

/** Writes a moderator's action to the log (who, what, on what, when, why). */
export async function recordModeration(tx: Tx, moderator: Actor, entry: ModerationEntry): Promise<void> {
  await tx.insert(moderationLog).values({
    moderatorId: moderator.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    subjectId: entry.subjectId,
    reason: entry.reason ?? null,
  });
}

/**
 * Closes an item's open flags: a moderator decided on it. What they were, as the log's
 * 'why' says it ('2 spam, 1 rude'); null when none was open.
 */
export async function closeFlags(
  tx: Tx,
  target: FlagTargetRef,
  resolution: 'dismissed' | 'deleted',
): Promise<string | null> {
  const closed = await tx
    .update(flags)
    .set({ resolvedAt: sql`now()`, resolution })
    .where(and(eq(flags.targetType, target.targetType), eq(flags.targetId, target.targetId), isNull(flags.resolvedAt)))
    .returning({ reason: flags.reason });
  if (closed.length === 0) return null;
  const counts = new Map<string, number>();
  for (const { reason } of closed) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return `flags: ${[...counts].map(([reason, count]) => `${count} ${reason}`).join(', ')}`;
}
