import { callApi } from '@/lib/api-client';

/** Marks a message (and so its thread) read by the user. */
export async function readMessage(mid: string, username: string): Promise<void> {
  await callApi('POST /message/readMessage', { body: { mid, username } });
}
