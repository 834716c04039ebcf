import type { FlagTarget } from '@porpoise/core';
import type { ResponseOf } from '@porpoise/core/contract';
import { callApi } from '@/lib/api-client';

export type ReviewQueue = ResponseOf<'reviewQueue'>;
export type ReviewItem = ReviewQueue['items'][number];
export type LogEntry = ResponseOf<'moderationLog'>[number];

export function getReviewQueue(signal?: AbortSignal): Promise<ReviewQueue> {
  return callApi('GET /moderation/queue', { signal });
}

/** Dismisses an item's flags (a post waiting for approval: approves it), or deletes the item. */
export function decideReview(decision: 'dismiss' | 'delete', targetType: FlagTarget, targetId: string) {
  const body = { targetType, targetId };
  return decision === 'dismiss'
    ? callApi('POST /moderation/dismiss', { body })
    : callApi('POST /moderation/delete', { body });
}

/**
 * Suspends an item's author for `days` (null: for good) with a reason: the server finds the
 * account from the item, so a PorpChat message's account is never named here.
 */
export function suspendAuthor(targetType: FlagTarget, targetId: string, reason: string, days: number | null) {
  const length = days === null ? { forever: true } : { days };
  return callApi('POST /moderation/suspend', { body: { targetType, targetId, reason, ...length } });
}

export function getModerationLog(before: string | null, signal?: AbortSignal): Promise<LogEntry[]> {
  return callApi('GET /moderation/log', { query: before === null ? {} : { before }, signal });
}
