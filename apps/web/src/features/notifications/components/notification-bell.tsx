import { useEffect } from 'react';
import { matchPath, NavLink, useLocation } from 'react-router';
import type { Notification } from '@porpoise/core';
import { BellIcon } from '@/components/icons';
import { paths } from '@/config/paths';
import { useSocketEvent } from '@/hooks/use-live-events';
import { announce } from '@/lib/announcer';
import { NOTIFICATION_VERBS } from '../notification-text';
import { countNewNotification, refreshUnreadCount, setUnreadCount, useUnreadCount } from '../unread-count';

/**
 * Whether the open page already announces what this notification is about: a new answer on
 * the open question (its page says 'New answer by ...'), a message in the open thread. Said
 * once, not twice.
 */
function announcedByPage(notification: Notification, pathname: string): boolean {
  const question = matchPath(paths.question.pattern, pathname)?.params.qid;
  const thread = matchPath(paths.thread.pattern, pathname)?.params.tid;
  const answered = notification.kind === 'answer' || notification.kind === 'followedAnswer';
  return (
    (answered && question !== undefined && question === notification.qid) ||
    (thread !== undefined && thread === notification.tid)
  );
}

/** Past this the badge shows '99+' (the link's name keeps the exact number). */
const BADGE_MAX = 99;

/**
 * The header's bell (docs/product.md section 11): a link to /notifications named exactly
 * 'Notifications, N unread', with a badge while N > 0. The count is asked for on each page
 * change, goes up at once as the member's notifications arrive on the socket, and follows
 * the count the server sends when some are marked read elsewhere or their posts hidden.
 */
export function NotificationBell() {
  const count = useUnreadCount();
  const { key, pathname } = useLocation();

  useEffect(() => {
    const controller = new AbortController();
    void refreshUnreadCount(controller.signal);
    return () => controller.abort();
  }, [key]);

  // The next member to sign in on this tab starts from nothing, not from this one's count.
  useEffect(() => () => setUnreadCount(0), []);

  useSocketEvent('notificationUpdate', (notification) => {
    if (notification.read) return;
    countNewNotification();
    // docs/product.md section 12: 'alice answered your question', read out (unless the page says it).
    if (!announcedByPage(notification, pathname)) {
      announce('notification', `${notification.actor} ${NOTIFICATION_VERBS[notification.kind]}`);
    }
  });
  // Marked read in another tab, or a post it was about hidden or shown again.
  useSocketEvent('notificationCount', ({ count: next }) => setUnreadCount(next));

  return (
    <NavLink to={paths.notifications()} className="bell">
      <BellIcon className="bell__icon" width="24" height="24" />
      <span className="visually-hidden">{`Notifications, ${count} unread`}</span>
      {count > 0 ? (
        <span className="bell__badge" aria-hidden="true">
          {count > BADGE_MAX ? `${BADGE_MAX}+` : count}
        </span>
      ) : null}
    </NavLink>
  );
}
