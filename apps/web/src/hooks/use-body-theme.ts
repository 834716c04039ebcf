import { useEffect } from 'react';
import type { AccessibilitySettings } from '@porpoise/core';
import { THEME_CLASSES, themeClassNames } from '@/lib/theme';

/** Keeps the body's theme classes in step with the settings; null (signed out) removes them all. */
export function useBodyTheme(settings: AccessibilitySettings | null): void {
  const wanted = themeClassNames(settings).join(' ');
  useEffect(() => {
    const { classList } = document.body;
    classList.remove(...THEME_CLASSES);
    if (wanted !== '') classList.add(...wanted.split(' '));
  }, [wanted]);
}
