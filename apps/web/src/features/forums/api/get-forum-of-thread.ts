import type { Forum } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** The forum whose discussion is thread `tid`, or null when it is no forum's. */
export async function getForumOfThread(tid: string, signal?: AbortSignal): Promise<Forum | null> {
  const forums = await callApi('GET /forum/getForums', { query: { thread: tid }, signal });
  return forums[0] ?? null;
}
