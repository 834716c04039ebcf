import { useEffect } from 'react';

/**
 * Shows the whole of each control that receives focus, when it fits: browsers scroll a
 * text box only as far as its caret, which can leave most of a tall box below the window.
 * The page's scroll-padding keeps it clear of the sticky header (WCAG 2.2, 2.4.11); a
 * control already in full view does not move.
 */
export function useRevealFocus(): void {
  useEffect(() => {
    function handleFocusIn(event: FocusEvent) {
      const target = event.target;
      if (!(target instanceof HTMLElement) || target === document.body) return;
      // Focus moved by script to a container (the main content after navigation) keeps its place.
      if (target.getAttribute('tabindex') === '-1') return;
      // After the browser's own scroll and any scroll the code that moved focus made.
      requestAnimationFrame(() => {
        if (document.activeElement === target) target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      });
    }
    document.addEventListener('focusin', handleFocusIn);
    return () => document.removeEventListener('focusin', handleFocusIn);
  }, []);
}
