import { useId, useRef, useState } from 'react';
import { useLiveEvents } from '@/hooks/use-live-events';
import { Link } from 'react-router';
import { type Forum } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { ForumsIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { useRemoteData } from '@/hooks/use-remote-data';
import { userFacingError } from '@/lib/api-client';
import { FORUM_PAGE_SIZE, getForums } from '../api/get-forums';

const FETCH_ERROR = 'Error when fetching forums';

/** The forums shown so far, newest first, and whether the server may have older ones. */
interface ForumPages {
  forums: Forum[];
  hasMore: boolean;
}

/** Replaces a forum by _id, or puts a new one first (the list is newest first; spec section 4). */
function withForum(pages: ForumPages, changed: Forum): ForumPages {
  const forums = pages.forums.some((forum) => forum._id === changed._id)
    ? pages.forums.map((forum) => (forum._id === changed._id ? changed : forum))
    : [changed, ...pages.forums];
  return { ...pages, forums };
}

/** Adds an older page; live inserts shift the server's offsets, so a forum can come twice: keep the first. */
function withPage(pages: ForumPages, page: Forum[]): ForumPages {
  const shown = new Set(pages.forums.map((forum) => forum._id));
  return {
    forums: [...pages.forums, ...page.filter((forum) => !shown.has(forum._id))],
    hasMore: page.length === FORUM_PAGE_SIZE,
  };
}

/** Forum cards, each opening its discussion thread, kept current by forumUpdate (spec: /forums). */
export function ForumList({ username }: { username: string }) {
  const errorId = useId();
  const [pages, update] = useRemoteData(`forums:${username}`, async (signal) =>
    withPage({ forums: [], hasMore: true }, await getForums(username, 0, signal)),
  );
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const loading = useRef(false);

  useLiveEvents(update, { forumUpdate: withForum });

  async function loadMore(offset: number) {
    if (loading.current) return;
    loading.current = true;
    setLoadingMore(true);
    setLoadError(null);
    try {
      const page = await getForums(username, offset);
      update((current) => withPage(current, page));
    } catch (error) {
      setLoadError(userFacingError(error, FETCH_ERROR));
    } finally {
      loading.current = false;
      setLoadingMore(false);
    }
  }

  if (pages.status === 'loading') {
    return (
      <p className="muted" role="status">
        Loading forums…
      </p>
    );
  }
  if (pages.status === 'error') {
    return <p className="inline-error">{userFacingError(pages.error, FETCH_ERROR)}</p>;
  }
  const { forums, hasMore } = pages.data;
  if (forums.length === 0) {
    return <p className="empty-state">No forums yet. Start the first one!</p>;
  }
  return (
    <>
      <ul className="forum-grid" aria-label="Forums">
        {forums.map((forum) => (
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
      {hasMore ? (
        <div className="forum-more">
          <button
            type="button"
            className="button"
            onClick={() => void loadMore(forums.length)}
            aria-disabled={loadingMore}
            aria-describedby={loadError === null ? undefined : errorId}
          >
            {loadingMore ? 'Loading…' : 'Load more forums'}
          </button>
          <FormError id={errorId} message={loadError} />
        </div>
      ) : null}
    </>
  );
}
