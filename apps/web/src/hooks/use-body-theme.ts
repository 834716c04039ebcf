import { useEffect, useSyncExternalStore } from 'react';
import type { Account } from '@porpoise/core';
import { writeStorage } from '@/lib/storage';
import {
  REMEMBERED_THEME_KEY,
  rememberedTheme,
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
 * boot script, which sets the classes before the next load's first paint.
 */
export function useBodyTheme(account: Account | null): void {
  const system = useSyncExternalStore(subscribe, snapshot, () => 'light motion');
  const theme = rememberedTheme(account);
  const remembered = JSON.stringify(theme);
  const preferences: SystemPreferences = { dark: system.startsWith('dark'), reducedMotion: system.endsWith('reduce') };
  const wanted = themeClassNames(theme, preferences).join(' ');
  useEffect(() => {
    const { classList } = document.body;
    classList.remove(...THEME_CLASSES);
    if (wanted !== '') classList.add(...wanted.split(' '));
  }, [wanted]);
  useEffect(() => writeStorage('local', REMEMBERED_THEME_KEY, remembered), [remembered]);
}
