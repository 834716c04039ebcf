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

/** Suspends a member for `days` (null: for good) with a reason. */
export function suspendAccount(username: string, reason: string, days: number | null) {
  return callApi('POST /moderation/suspend', { body: { username, reason, days } });
}

export function getModerationLog(before: string | null, signal?: AbortSignal): Promise<LogEntry[]> {
  return callApi('GET /moderation/log', { query: before === null ? {} : { before }, signal });
}
