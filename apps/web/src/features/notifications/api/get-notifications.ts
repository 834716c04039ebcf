import type { Notification } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** How many notifications a page of the inbox holds (the server's default). */
export const NOTIFICATIONS_PAGE = 20;

/** A page of the member's notifications, newest first; with `before`, the ones older than that notification. */
export function getNotifications(before: string | null, signal?: AbortSignal): Promise<Notification[]> {
  return callApi('GET /notifications', {
    query: { limit: NOTIFICATIONS_PAGE, before: before ?? undefined },
    signal,
  });
}
