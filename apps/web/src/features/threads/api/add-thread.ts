import type { Thread } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** Starts an empty direct thread between the user and the recipient. */
export function addThread(own: string, recipient: string): Promise<Thread> {
  return apiRequest<Thread>('/thread/addThread', {
    method: 'POST',
    body: { messages: [], accounts: [own, recipient.trim()], threadUpdatedDateTime: new Date().toISOString() },
  });
}
