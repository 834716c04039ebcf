import type { Forum } from '@porpoise/core';
import { apiRequest } from '@/lib/api-client';

/** The forum whose discussion is thread `tid`, or null when it is no forum's. */
export async function getForumOfThread(tid: string, signal?: AbortSignal): Promise<Forum | null> {
  const forums = await apiRequest<Forum[]>('/forum/getForums', { query: { thread: tid }, signal });
  return forums[0] ?? null;
}
