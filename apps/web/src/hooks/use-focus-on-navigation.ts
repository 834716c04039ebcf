import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { cancelAnnouncements } from '@/lib/announcer';

/**
 * Moves focus to the element with the given id after each change of page, so keyboard
 * and screen-reader users start at the new content instead of a link that is gone, and
 * drops the announcements the last page had not yet made (lib/announcer.ts).
 * The first page is left alone: the browser's own start position is right there.
 */
export function useFocusOnNavigation(targetId: string): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const left = useRef(pathname);
  // What the last page gathered to announce is about a page the reader has left: dropped in a
  // layout effect, before the new page's own effects announce anything.
  useLayoutEffect(() => {
    if (left.current === pathname) return;
    left.current = pathname;
    cancelAnnouncements();
  }, [pathname]);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const target = document.getElementById(targetId);
    // A page that put the focus in one of its own fields as it opened keeps it there (the
    // search box, after the '/' shortcut: hooks/use-keyboard-shortcuts.ts).
    const active = document.activeElement;
    if (active instanceof HTMLElement && target?.contains(active) && active.matches('input, textarea, select')) return;
    target?.focus({ preventScroll: true });
  }, [pathname, targetId]);
}
