import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type Forum } from '@porpoise/core';
import { FormError } from '@/components/form-error';
import { ForumsIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { Deferred, LoadingText } from '@/components/deferred';
import { useLiveData, useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import { userFacingError } from '@/lib/api-client';
import { getForums, withPage, type ForumPages } from '../api/get-forums';

const FETCH_ERROR = 'Error when fetching forums';

/** Replaces a forum by _id, or puts a new one first (the list is newest first; spec section 4). */
function withForum(pages: ForumPages, changed: Forum): ForumPages {
  const forums = pages.forums.some((forum) => forum._id === changed._id)
    ? pages.forums.map((forum) => (forum._id === changed._id ? changed : forum))
    : [changed, ...pages.forums];
  return { ...pages, forums };
}

/** Forum cards, each opening its discussion thread, kept current by forumUpdate (spec: /forums). */
export function ForumList({ username, firstPage }: { username: string; firstPage: Promise<ForumPages> }) {
  const feed = useLiveFeed<ForumPages>({ forumUpdate: withForum });
  return (
    <Deferred
      data={firstPage}
      loading={<LoadingText>Loading forums…</LoadingText>}
      failed={(error) => <p className="inline-error">{userFacingError(error, FETCH_ERROR)}</p>}
    >
      {(loaded) => <ForumCards username={username} loaded={loaded} feed={feed} />}
    </Deferred>
  );
}

function ForumCards({ username, loaded, feed }: { username: string; loaded: ForumPages; feed: LiveFeed<ForumPages> }) {
  const errorId = useId();
  const [pages, update] = useLiveData(loaded, feed);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const loading = useRef(false);

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

  const { forums, hasMore } = pages;
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
