import { useSyncExternalStore } from 'react';
import { getUnreadCount } from './api/unread-count';

/**
 * The member's unread notification count, shared by the header's bell and the inbox: the bell
 * asks the server on each page change and counts each notification the socket brings; the
 * inbox sets it from markRead's answer. A server answer applies only if nothing changed the
 * count while it was on its way, so an older answer never undoes a newer change.
 */
let count = 0;
let changes = 0;
const listeners = new Set<() => void>();

function set(next: number) {
  changes += 1;
  if (next === count) return;
  count = next;
  for (const listener of listeners) listener();
}

/** Asks the server for the count; a failure keeps the one shown. */
export async function refreshUnreadCount(signal?: AbortSignal): Promise<void> {
  const asked = changes;
  try {
    const answer = await getUnreadCount(signal);
    if (changes === asked) set(answer);
  } catch {
    // The bell keeps the last count it knew; the next page change asks again.
  }
}

/** One more unread notification (a notificationUpdate arrived). */
export function countNewNotification(): void {
  set(count + 1);
}

/** The count after a markRead (its answer), or 0 when the member leaves. */
export function setUnreadCount(next: number): void {
  set(Math.max(0, next));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => count;

export function useUnreadCount(): number {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
