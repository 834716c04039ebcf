import { callApi } from '@/lib/api-client';

/** How many of the member's notifications are unread. */
export async function getUnreadCount(signal?: AbortSignal): Promise<number> {
  return (await callApi('GET /notifications/unreadCount', { signal })).count;
}
