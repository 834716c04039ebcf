import { callApi } from '@/lib/api-client';

/** Marks some of the member's notifications read, or all of them; resolves with the unread count after. */
export async function markNotificationsRead(which: string[] | 'all'): Promise<number> {
  const body = which === 'all' ? { all: true as const } : { ids: which };
  return (await callApi('POST /notifications/markRead', { body })).count;
}
