import { callApi } from '@/lib/api-client';

/** Turns the email digest off, as its mail's unsubscribe link allows (no session needed). */
export async function unsubscribeDigest(token: string): Promise<void> {
  await callApi('POST /digest/unsubscribe', { query: { token } });
}
