import { useEffect, useSyncExternalStore } from 'react';
import type { Account } from '@porpoise/core';
import { readStorage, writeStorage } from '@/lib/storage';
import {
  REMEMBERED_THEME_KEY,
  rememberedTheme,
  storedTheme,
  THEME_CLASSES,
  themeClassNames,
  type SystemPreferences,
} from '@/lib/theme';

const DARK = '(prefers-color-scheme: dark)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribe(changed: () => void): () => void {
  const queries = [DARK, REDUCED_MOTION].map((query) => window.matchMedia(query));
  for (const query of queries) query.addEventListener('change', changed);
  return () => {
    for (const query of queries) query.removeEventListener('change', changed);
  };
}

/** The system's preferences as one string (a stable snapshot): 'dark' and 'reduce' when they hold. */
const snapshot = () =>
  `${window.matchMedia(DARK).matches ? 'dark' : 'light'} ${window.matchMedia(REDUCED_MOTION).matches ? 'reduce' : 'motion'}`;

/**
 * Keeps the body's theme classes in step with the account's settings and, where they follow
 * it, with the system's preferences as they change (no reload). Remembers the look for the
 * boot script, which sets the classes before the next load's first paint. `undefined`: the
 * account could not be asked for (the API unreachable): the look remembered last stays, and
 * is not overwritten.
 */
export function useBodyTheme(account: Account | null | undefined): void {
  const system = useSyncExternalStore(subscribe, snapshot, () => 'light motion');
  const theme =
    account === undefined
      ? (storedTheme(readStorage('local', REMEMBERED_THEME_KEY)) ?? rememberedTheme(null))
      : rememberedTheme(account);
  const remembered = account === undefined ? null : JSON.stringify(theme);
  const preferences: SystemPreferences = { dark: system.startsWith('dark'), reducedMotion: system.endsWith('reduce') };
  const wanted = themeClassNames(theme, preferences).join(' ');
  useEffect(() => {
    const { classList } = document.body;
    classList.remove(...THEME_CLASSES);
    if (wanted !== '') classList.add(...wanted.split(' '));
    // A phone's toolbar takes the page's colour, dark or light.
    const page = getComputedStyle(document.body).getPropertyValue('--color-page').trim();
    if (page !== '') document.querySelector('meta[name="theme-color"]')?.setAttribute('content', page);
  }, [wanted]);
  useEffect(() => {
    if (remembered !== null) writeStorage('local', REMEMBERED_THEME_KEY, remembered);
  }, [remembered]);
}
