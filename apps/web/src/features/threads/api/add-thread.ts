import type { Thread } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** Starts an empty direct thread between the user and the recipient. */
export function addThread(own: string, recipient: string): Promise<Thread> {
  return callApi('POST /thread/addThread', {
    body: { messages: [], accounts: [own, recipient.trim()], threadUpdatedDateTime: new Date().toISOString() },
  });
}
