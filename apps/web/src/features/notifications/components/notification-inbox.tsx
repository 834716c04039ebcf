import { useRef, useState, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { MESSAGES, type Notification } from '@porpoise/core';
import { Deferred, LoadingText } from '@/components/deferred';
import { FormError } from '@/components/form-error';
import { RelativeTime } from '@/components/relative-time';
import { useLiveFeed, type LiveFeed } from '@/hooks/use-live-data';
import { LoadMore } from '@/components/load-more';
import { userFacingError } from '@/lib/api-client';
import { useNotificationList, withNewNotification } from '../hooks/use-notification-list';
import { NOTIFICATION_VERBS, notificationTarget } from '../notification-text';
import './notifications.css';

const ALL_READ = 'All notifications are marked as read.';

/** A click that opens the link here (not in a new tab or window). */
const opensHere = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

function NotificationItem({
  notification,
  open,
}: {
  notification: Notification;
  open: (event: MouseEvent<HTMLAnchorElement>, notification: Notification) => void;
}) {
  const unread = !notification.read;
  return (
    <li>
      <Link
        to={notificationTarget(notification)}
        className={unread ? 'notice notice--unread' : 'notice'}
        onClick={(event) => open(event, notification)}
      >
        <span className="notice__what">
          {unread ? (
            <>
              <span className="notice__dot" aria-hidden="true" />
              <span className="visually-hidden">Unread: </span>
            </>
          ) : null}
          <span className="notice__actor">{notification.actor}</span> {NOTIFICATION_VERBS[notification.kind]}
        </span>
        <span className="notice__snippet">{notification.snippet}</span>
        <span className="notice__time">
          <RelativeTime date={notification.createdAt} />
        </span>
      </Link>
    </li>
  );
}

function NotificationRows({ loaded, feed }: { loaded: Notification[]; feed: LiveFeed<Notification[]> }) {
  const navigate = useNavigate();
  const { items, hasMore, loadMore, loadingMore, loadError, markRead } = useNotificationList(loaded, feed);
  const [marking, setMarking] = useState(false);
  const [status, setStatus] = useState('');
  const [markError, setMarkError] = useState<{ message: string | null; attempt: number }>({
    message: null,
    attempt: 0,
  });
  const opening = useRef(false);

  /** Opening a notification marks it read, then goes to its target (docs/product.md section 11). */
  function open(event: MouseEvent<HTMLAnchorElement>, notification: Notification) {
    if (notification.read) return;
    if (!opensHere(event)) {
      // A new tab opens the target; this one stays, and shows it read.
      void markRead([notification._id]).catch(() => undefined);
      return;
    }
    event.preventDefault();
    if (opening.current) return;
    opening.current = true;
    // Read first, so the bell on the next page already counts it out; the target opens either way.
    void markRead([notification._id])
      .catch(() => undefined)
      .then(() => navigate(notificationTarget(notification)))
      .finally(() => {
        opening.current = false;
      });
  }

  async function markAll() {
    if (marking) return;
    setMarking(true);
    setStatus('');
    try {
      await markRead('all');
      setStatus(ALL_READ);
      setMarkError((current) => ({ message: null, attempt: current.attempt }));
    } catch (error) {
      setMarkError((current) => ({
        message: userFacingError(error, MESSAGES.unavailable),
        attempt: current.attempt + 1,
      }));
    } finally {
      setMarking(false);
    }
  }

  if (items.length === 0) {
    return <p className="empty-state">No notifications yet.</p>;
  }
  return (
    <>
      <div className="inbox-toolbar">
        <button
          type="button"
          className="button"
          aria-disabled={marking}
          aria-describedby={markError.message === null ? undefined : 'inbox-mark-error'}
          onClick={() => void markAll()}
        >
          Mark all as read
        </button>
        <p className="inbox-toolbar__status" role="status">
          {status}
        </p>
        <FormError key={markError.attempt} id="inbox-mark-error" message={markError.message} />
      </div>
      <ul className="notice-list" aria-label="Your notifications">
        {items.map((notification) => (
          <NotificationItem key={notification._id} notification={notification} open={open} />
        ))}
      </ul>
      <LoadMore
        hasMore={hasMore}
        loadMore={loadMore}
        loadingMore={loadingMore}
        loadError={loadError}
        errorId="inbox-more-error"
      />
    </>
  );
}

/**
 * The member's notifications, newest first (docs/product.md section 11): each names its actor and
 * what happened, with the post's snippet and time; unread ones are bold with a dot and the word
 * 'Unread'. New ones arrive on top while the page is open.
 */
export function NotificationInbox({ notifications }: { notifications: Promise<Notification[]> }) {
  // Listening from the start: a notification that comes while the first page loads is not lost.
  const feed = useLiveFeed<Notification[]>({ notificationUpdate: withNewNotification });
  return (
    <Deferred
      data={notifications}
      loading={<LoadingText>Loading notifications…</LoadingText>}
      failed={(error) => <p className="inline-error">{userFacingError(error, 'Failed to load notifications')}</p>}
    >
      {(loaded) => <NotificationRows loaded={loaded} feed={feed} />}
    </Deferred>
  );
}
