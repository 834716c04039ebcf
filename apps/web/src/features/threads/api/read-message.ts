import { callApi } from '@/lib/api-client';

/** Marks a message (and so its thread) read by the user. */
export async function readMessage(mid: string, username: string): Promise<void> {
  await callApi('readMessage', { body: { mid, username } });
}
