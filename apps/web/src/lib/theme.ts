import { COLOR_BLINDNESS, type AccessibilitySettings } from '@porpoise/core';

/** Body classes that select a palette in styles/theme.css; 'none' has no class of its own. */
export const THEME_CLASSES = [...COLOR_BLINDNESS.filter((name) => name !== 'none'), 'low-vision'] as const;

/** The body classes for an account's accessibility settings (docs/product.md section 5). */
export function themeClassNames(settings: AccessibilitySettings | null): string[] {
  if (settings === null) return [];
  const classes: string[] = [];
  if (settings.colorBlindness !== 'none') classes.push(settings.colorBlindness);
  if (settings.lowVision) classes.push('low-vision');
  return classes;
}
