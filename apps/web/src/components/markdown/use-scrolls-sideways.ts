import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether an element's content is wider than it (a long code line, a wide table): such a
 * box needs to take the keyboard's focus so its content can be scrolled (WCAG 2.1.1);
 * one that fits stays out of the tab order. Watched as the element resizes.
 */
export function useScrollsSideways<T extends HTMLElement>(): [RefObject<T | null>, boolean] {
  const element = useRef<T>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = element.current;
    if (box === null) return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [element, scrolls];
}
