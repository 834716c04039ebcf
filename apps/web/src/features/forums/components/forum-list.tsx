import { useEffect } from 'react';
import { Link } from 'react-router';
import { SOCKET_EVENTS, type Forum } from '@porpoise/core';
import { ForumsIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { userFacingError } from '@/lib/api-client';
import { useSocket } from '@/lib/socket';
import { getForums } from '../api/get-forums';

/** Replaces a forum by _id or appends a new one (spec section 4). */
function withForum(forums: Forum[], changed: Forum): Forum[] {
  return forums.some((forum) => forum._id === changed._id)
    ? forums.map((forum) => (forum._id === changed._id ? changed : forum))
    : [...forums, changed];
}

/** Forum cards, each opening its discussion thread, kept current by forumUpdate (spec: /forums). */
export function ForumList({ username }: { username: string }) {
  const socket = useSocket();
  const [forums, update] = useRemoteData(`forums:${username}`, (signal) => getForums(username, signal));

  useEffect(() => {
    function handleForumUpdate(forum: Forum) {
      update((list) => withForum(list, forum));
    }
    socket.on(SOCKET_EVENTS.forumUpdate, handleForumUpdate);
    return () => {
      socket.off(SOCKET_EVENTS.forumUpdate, handleForumUpdate);
    };
  }, [socket, update]);

  if (forums.status === 'loading') {
    return (
      <p className="muted" role="status">
        Loading forums…
      </p>
    );
  }
  if (forums.status === 'error') {
    return <p className="inline-error">{userFacingError(forums.error, 'Error when fetching forums')}</p>;
  }
  if (forums.data.length === 0) {
    return <p className="empty-state">No forums yet. Start the first one!</p>;
  }
  return (
    <ul className="forum-grid" aria-label="Forums">
      {forums.data.map((forum) => (
        <li key={forum._id} className="forum-card">
          <ForumsIcon className="forum-card__icon" />
          <h2 className="forum-card__name">
            {forum.thread === '' ? (
              forum.name
            ) : (
              <Link className="forum-card__link" to={paths.thread(forum.thread)}>
                {forum.name}
              </Link>
            )}
          </h2>
          <p className="forum-card__description">{forum.description}</p>
        </li>
      ))}
    </ul>
  );
}
