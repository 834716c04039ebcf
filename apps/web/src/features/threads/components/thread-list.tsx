import { Link } from 'react-router';
import { type Thread } from '@porpoise/core';
import { markdownPlainText } from '@porpoise/core/markdown';
import { RelativeTime } from '@/components/relative-time';
import { paths } from '@/config/paths';
import { Deferred, LoadingText } from '@/components/deferred';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import { userFacingError } from '@/lib/api-client';

const newestFirst = (a: Thread, b: Thread) => b.threadUpdatedDateTime.localeCompare(a.threadUpdatedDateTime);

/** Puts a changed thread in place of its old copy (or adds it) and keeps the list newest first (spec section 4). */
function withThread(threads: Thread[], changed: Thread): Thread[] {
  return [changed, ...threads.filter((thread) => thread._id !== changed._id)].sort(newestFirst);
}

function ThreadRow({ thread, username }: { thread: Thread; username: string }) {
  const other = thread.accounts.find((name) => name !== username) ?? username;
  const last = thread.messages.at(-1);
  const unread = last !== undefined && !last.views.includes(username);
  return (
    <li>
      <Link to={paths.thread(thread._id)} className={unread ? 'thread-row thread-row--unread' : 'thread-row'}>
        <span className="thread-row__who">
          {unread ? (
            <>
              <span className="thread-row__dot" aria-hidden="true" />
              <span className="visually-hidden">Unread: </span>
            </>
          ) : null}
          {other}
        </span>
        {last === undefined ? (
          <span className="thread-row__snippet muted">Nothing yet. . .</span>
        ) : (
          <>
            <span className="thread-row__snippet">
              {last.sender === username ? 'You: ' : ''}
              {markdownPlainText(last.content, 'inline')}
            </span>
            <span className="thread-row__time">
              <RelativeTime date={last.messageDateTime} />
            </span>
          </>
        )}
      </Link>
    </li>
  );
}

/** The user's direct threads, newest first and kept current by threadUpdate (spec: /threads). */
export function ThreadList({ username, threads }: { username: string; threads: Promise<Thread[]> }) {
  const feed = useLiveFeed<Thread[]>({
    threadUpdate: (list, thread) => (thread.accounts.includes(username) ? withThread(list, thread) : list),
  });
  return (
    <Deferred
      data={threads}
      loading={<LoadingText>Loading threads…</LoadingText>}
      failed={(error) => <p className="inline-error">{userFacingError(error, 'Error when fetching threads')}</p>}
    >
      {(loaded) => <ThreadRows username={username} loaded={loaded} feed={feed} />}
    </Deferred>
  );
}

function ThreadRows({ username, loaded, feed }: { username: string; loaded: Thread[]; feed: LiveFeed<Thread[]> }) {
  const [threads] = useLiveData(loaded, feed);
  if (threads.length === 0) {
    return <p className="empty-state">No threads yet. Start one to message another member.</p>;
  }
  return (
    <ul className="thread-list" aria-label="Your threads">
      {threads.map((thread) => (
        <ThreadRow key={thread._id} thread={thread} username={username} />
      ))}
    </ul>
  );
}
