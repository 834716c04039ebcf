import { useParams } from 'react-router';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getForumOfThread } from '@/features/forums/api/get-forum-of-thread';
import { ThreadView, type ThreadTopic } from '@/features/threads/components/thread-view';
import { useRemoteData } from '@/hooks/use-remote-data';

/**
 * One conversation (spec: /threads/:tid). A thread has no name of its own, so a forum's
 * discussion is titled by looking the forum up by its thread id.
 */
export function ThreadRoute() {
  const { tid = '' } = useParams();
  const account = useAccount();
  const [forum] = useRemoteData(`forum-of:${account.username}:${tid}`, (signal) =>
    getForumOfThread(account.username, tid, signal),
  );
  const topic: ThreadTopic | null =
    forum.status === 'ready' && forum.data !== null
      ? { name: forum.data.name, description: forum.data.description }
      : null;
  return <ThreadView key={tid} tid={tid} username={account.username} topic={topic} />;
}
