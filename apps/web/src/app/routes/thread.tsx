import { useLoaderData, useParams, type LoaderFunctionArgs } from 'react-router';
import type { Forum } from '@porpoise/core';
import { deferred } from '@/lib/deferred';
import { moderates } from '@/lib/roles';
import { signedInAccount } from '@/features/auth/api/me';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getForumOfThread } from '@/features/forums/api/get-forum-of-thread';
import { getThread } from '@/features/threads/api/get-thread';
import { ThreadView, type ThreadTopic } from '@/features/threads/components/thread-view';
import type { NavHandle } from '../layouts/main-nav';

/**
 * The thread's messages, shown when they arrive, and the forum whose discussion it is (null
 * for a direct thread), looked up before the page shows so that the menu marks the right
 * section from the first paint. A failed lookup counts as no forum: the thread itself
 * still loads (and says when it cannot).
 */
export async function threadLoader({ params, request }: LoaderFunctionArgs) {
  const tid = params.tid ?? '';
  const thread = deferred(signedInAccount().then((account) => getThread(tid, account.username, request.signal)));
  const forum: Forum | null = await getForumOfThread(tid, request.signal).catch(() => null);
  return { forum, thread };
}

/** A forum's discussion belongs to Forums in the menu, a direct thread to Threads (docs/product.md section 5). */
export const threadHandle: NavHandle = {
  navSection: (data) =>
    typeof data === 'object' && data !== null && 'forum' in data && data.forum !== null ? 'forums' : 'threads',
};

/**
 * One conversation (spec: /threads/:tid). A thread has no name of its own, so a forum's
 * discussion is titled by looking the forum up by its thread id.
 */
export function ThreadRoute() {
  const { tid = '' } = useParams();
  const account = useAccount();
  const { forum, thread } = useLoaderData<typeof threadLoader>();
  const topic: ThreadTopic | null = forum === null ? null : { name: forum.name, description: forum.description };
  return (
    <ThreadView
      key={tid}
      tid={tid}
      username={account.username}
      moderates={moderates(account)}
      topic={topic}
      thread={thread}
    />
  );
}
