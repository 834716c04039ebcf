import type { Thread } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** The user's direct threads, newest first, each with only its last message. */
export function getThreads(username: string, signal?: AbortSignal): Promise<Thread[]> {
  return apiRequest<Thread[]>('/thread/getThreads', { query: { username }, signal });
}
