import type { Forum } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** Every forum, newest first; each has its discussion thread's id. */
export function getForums(username: string, signal?: AbortSignal): Promise<Forum[]> {
  return apiRequest<Forum[]>('/forum/getForums', { query: { username }, signal });
}
