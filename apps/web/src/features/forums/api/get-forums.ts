import { LIMITS, type Forum } from '@porpoise/core';
import { callApi } from '@/lib/api-client';

/** How many forums one request brings (the server's default page). */
export const FORUM_PAGE_SIZE = LIMITS.pageSizeDefault;

/** One page of forums, newest first, after the first `offset`; each has its discussion thread's id. */
export function getForums(username: string, offset: number, signal?: AbortSignal): Promise<Forum[]> {
  return callApi('GET /forum/getForums', { query: { username, limit: FORUM_PAGE_SIZE, offset }, signal });
}

/** The forums shown so far, newest first, and whether the server may have older ones. */
export interface ForumPages {
  forums: Forum[];
  hasMore: boolean;
}

/** Adds an older page; live inserts shift the server's offsets, so a forum can come twice: keep the first. */
export function withPage(pages: ForumPages, page: Forum[]): ForumPages {
  const shown = new Set(pages.forums.map((forum) => forum._id));
  return {
    forums: [...pages.forums, ...page.filter((forum) => !shown.has(forum._id))],
    hasMore: page.length === FORUM_PAGE_SIZE,
  };
}

/** The first page of forums, as /forums shows it. */
export async function getFirstForums(username: string, signal?: AbortSignal): Promise<ForumPages> {
  return withPage({ forums: [], hasMore: true }, await getForums(username, 0, signal));
}
