import type { Thread } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** The user's direct threads, newest first, each with only its last message. */
export function getThreads(username: string, signal?: AbortSignal): Promise<Thread[]> {
  return callApi('GET /thread/getThreads', { query: { username }, signal });
}
