import type { Thread } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** One thread with all its messages, oldest first; opening it marks its last message read. */
export function getThread(tid: string, username: string, signal?: AbortSignal): Promise<Thread> {
  return callApi('GET /thread/getThreadById/:id', {
    params: { id: tid },
    query: { username },
    signal,
    expectedStatuses: [404],
  });
}
