import { useEffect } from 'react';

const VARIABLE = '--sticky-top';

/** How far down the page the sticky elements matching the selectors reach (0 when none sticks). */
function stickyBottom(selectors: readonly string[]): number {
  let bottom = 0;
  for (const selector of selectors) {
    const element = document.querySelector<HTMLElement>(selector);
    if (element === null) continue;
    const style = getComputedStyle(element);
    if (style.position !== 'sticky' && style.position !== 'fixed') continue;
    bottom = Math.max(bottom, (Number.parseFloat(style.top) || 0) + element.getBoundingClientRect().height);
  }
  return Math.ceil(bottom);
}

/**
 * Keeps the CSS variable --sticky-top (read by the page's scroll-padding-top) equal to the
 * height the sticky header and bars cover at the top of the window, so focused controls
 * never scroll under them (WCAG 2.2, 2.4.11). It follows their size (low vision, a wrapped
 * name) and the window's (the phone layout's tab bar sticks too); removed on unmount.
 */
export function useStickyTop(selectors: readonly string[]): void {
  const key = selectors.join(',');
  useEffect(() => {
    const list = key.split(',');
    const root = document.documentElement;
    const update = () => {
      const value = `${stickyBottom(list)}px`;
      if (root.style.getPropertyValue(VARIABLE) !== value) root.style.setProperty(VARIABLE, value);
    };
    // The observer's first call, once the first frame is laid out, sets it: measuring here
    // would lay the page out once more before that frame.
    const observer = new ResizeObserver(update);
    for (const selector of list) {
      const element = document.querySelector(selector);
      if (element !== null) observer.observe(element);
    }
    // The body's classes (low vision) change borders and sizes; a resize switches layouts.
    const classes = new MutationObserver(update);
    classes.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    window.addEventListener('resize', update);
    return () => {
      observer.disconnect();
      classes.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(VARIABLE);
    };
  }, [key]);
}
