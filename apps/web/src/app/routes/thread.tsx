import { useLoaderData, useParams, type LoaderFunctionArgs } from 'react-router';
import type { Forum } from '@porpoise/core';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getForumOfThread } from '@/features/forums/api/get-forum-of-thread';
import { ThreadView, type ThreadTopic } from '@/features/threads/components/thread-view';
import type { NavHandle } from '../layouts/main-nav';

/**
 * The forum whose discussion this thread is, or null for a direct thread. Looked up before
 * the page shows, so the menu marks the right section from the first paint. A failed lookup
 * counts as no forum: the thread itself still loads (and says when it cannot).
 */
export async function threadLoader({ params, request }: LoaderFunctionArgs): Promise<Forum | null> {
  try {
    return await getForumOfThread(params.tid ?? '', request.signal);
  } catch {
    return null;
  }
}

/** A forum's discussion belongs to Forums in the menu, a direct thread to Threads (product.md section 5). */
export const threadHandle: NavHandle = {
  navSection: (forum) => (forum === null || forum === undefined ? 'threads' : 'forums'),
};

/**
 * One conversation (spec: /threads/:tid). A thread has no name of its own, so a forum's
 * discussion is titled by looking the forum up by its thread id.
 */
export function ThreadRoute() {
  const { tid = '' } = useParams();
  const account = useAccount();
  const forum = useLoaderData<typeof threadLoader>();
  const topic: ThreadTopic | null = forum === null ? null : { name: forum.name, description: forum.description };
  return <ThreadView key={tid} tid={tid} username={account.username} topic={topic} />;
}
