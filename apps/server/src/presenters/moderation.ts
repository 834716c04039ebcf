import { FLAG_REASONS, type FlagReason } from '@porpoise/core';
import type { moderationLogEntrySchema, reviewItemSchema } from '@porpoise/core/contract';
import type { z } from '@porpoise/core/schemas';
import type { LogRow, ReviewRow } from '../queries/moderation.ts';

const iso = (at: Date | string) => new Date(at).toISOString();

/** An item of the review queue, with its flags counted by reason. */
export function presentReviewItem(row: ReviewRow): z.output<typeof reviewItemSchema> {
  const flagCounts = Object.fromEntries(FLAG_REASONS.map((reason) => [reason, 0])) as Record<FlagReason, number>;
  for (const flag of row.flags) flagCounts[flag.reason] += 1;
  return {
    targetType: row.targetType,
    targetId: String(row.targetId),
    since: iso(row.since),
    heldFor: row.heldFor,
    flagCounts,
    flags: row.flags.map((flag) => ({ reason: flag.reason, note: flag.note, by: flag.by, at: iso(flag.at) })),
    author: row.author,
    suspendable: row.suspendable,
    authorSuspended: row.authorSuspended,
    context: row.context,
    text: row.text,
    questionId: row.questionId === null ? null : String(row.questionId),
    threadId: row.threadId,
  };
}

/** One entry of the moderation log. */
export function presentLogEntry(row: LogRow): z.output<typeof moderationLogEntrySchema> {
  return {
    _id: String(row.id),
    moderator: row.moderator,
    action: row.action as z.output<typeof moderationLogEntrySchema>['action'],
    targetType: row.targetType as z.output<typeof moderationLogEntrySchema>['targetType'],
    targetId: String(row.targetId),
    subject: row.subject,
    reason: row.reason,
    at: iso(row.at),
    questionId: row.questionId === null ? null : String(row.questionId),
    threadId: row.threadId,
  };
}
