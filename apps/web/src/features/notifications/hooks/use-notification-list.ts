import { useCallback, useRef, useState } from 'react';
import { MESSAGES, type Notification } from '@porpoise/core';
import { useLiveData, type LiveFeed } from '@/hooks/use-live-data';
import { userFacingError } from '@/lib/api-client';
import { getNotifications, NOTIFICATIONS_PAGE } from '../api/get-notifications';
import { markNotificationsRead } from '../api/mark-read';
import { setUnreadCount } from '../unread-count';

/** A new notification goes on top, once (the socket may bring one the page already has). */
export function withNewNotification(list: Notification[], notification: Notification): Notification[] {
  return list.some((item) => item._id === notification._id) ? list : [notification, ...list];
}

/**
 * The inbox from its first page on: new notifications on top as they arrive (`feed`), older
 * pages on request (`before` the last one shown), and marking read, here and in the bell.
 */
export function useNotificationList(loaded: Notification[], feed: LiveFeed<Notification[]>) {
  const [items, update] = useLiveData(loaded, feed);
  const [hasMore, setHasMore] = useState(loaded.length >= NOTIFICATIONS_PAGE);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const loading = useRef(false);
  const last = items.at(-1)?._id ?? null;

  const loadMore = useCallback(async () => {
    if (loading.current || last === null) return;
    loading.current = true;
    setLoadingMore(true);
    setLoadError(null);
    try {
      const older = await getNotifications(last);
      update((current) =>
        older.reduce((list, item) => (list.some((had) => had._id === item._id) ? list : [...list, item]), current),
      );
      setHasMore(older.length >= NOTIFICATIONS_PAGE);
    } catch (error) {
      setLoadError(userFacingError(error, MESSAGES.unavailable));
    } finally {
      loading.current = false;
      setLoadingMore(false);
    }
  }, [last, update]);

  /** Marks some notifications (or all) read on the server, then here; the bell takes the server's count. */
  const markRead = useCallback(
    async (which: string[] | 'all') => {
      const unread = await markNotificationsRead(which);
      update((current) =>
        current.map((item) => (which === 'all' || which.includes(item._id) ? { ...item, read: true } : item)),
      );
      setUnreadCount(unread);
    },
    [update],
  );

  return { items, hasMore, loadMore, loadingMore, loadError, markRead };
}
