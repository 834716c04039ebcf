import { LIMITS, type Forum } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** How many forums one request brings (the server's default page). */
export const FORUM_PAGE_SIZE = LIMITS.pageSizeDefault;

/** One page of forums, newest first, after the first `offset`; each has its discussion thread's id. */
export function getForums(username: string, offset: number, signal?: AbortSignal): Promise<Forum[]> {
  return callApi('GET /forum/getForums', { query: { username, limit: FORUM_PAGE_SIZE, offset }, signal });
}
