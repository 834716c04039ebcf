import { useParams } from 'react-router';
import { useAccount } from '@/features/auth/hooks/use-account';
import { getForums } from '@/features/forums/api/get-forums';
import { ThreadView, type ThreadTopic } from '@/features/threads/components/thread-view';
import { useRemoteData } from '@/hooks/use-remote-data';

/**
 * One conversation (spec: /threads/:tid). A thread has no name of its own, so a forum's
 * discussion is titled by looking the forum up by its thread id.
 */
export function ThreadRoute() {
  const { tid = '' } = useParams();
  const account = useAccount();
  const [forums] = useRemoteData(`forums:${account.username}`, (signal) => getForums(account.username, signal));
  const forum = forums.status === 'ready' ? forums.data.find((candidate) => candidate.thread === tid) : undefined;
  const topic: ThreadTopic | null = forum === undefined ? null : { name: forum.name, description: forum.description };
  return <ThreadView key={tid} tid={tid} username={account.username} topic={topic} />;
}
