import { apiRequest } from '@/lib/api-client';

/** Marks a message (and so its thread) read by the user. */
export async function readMessage(mid: string, username: string): Promise<void> {
  await apiRequest<unknown>('/message/readMessage', { method: 'POST', body: { mid, username } });
}
