import { COLOR_BLINDNESS, READING_COMFORT_DEFAULTS, type Account } from '@porpoise/core';

/**
 * Every body class the account's settings choose among (styles/theme.css): the colour themes
 * ('none' has no class of its own), low vision (docs/product.md section 5) and reading comfort
 * (section 12).
 */
export const THEME_CLASSES = [
  ...COLOR_BLINDNESS.filter((name) => name !== 'none'),
  'low-vision',
  'dark',
  'dyslexia-font',
  'reduced-motion',
  'announcements-off',
] as const;

/** What the system says it prefers, followed live (use-body-theme.ts). */
export interface SystemPreferences {
  dark: boolean;
  reducedMotion: boolean;
}

/**
 * What the boot script (public/theme-boot.js) needs to set the classes before the first
 * paint, from the last account this browser showed: the classes that do not depend on the
 * system, and whether dark colours and reduced motion follow it. Kept in localStorage.
 */
export interface RememberedTheme {
  classes: string[];
  dark: 'on' | 'off' | 'system';
  reducedMotion: 'on' | 'off' | 'system';
}

export const REMEMBERED_THEME_KEY = 'porpoise.theme';

/**
 * The account's look, system preferences aside. A visitor signed out reads with a new
 * account's defaults: dark colours while the system prefers them. Reduced motion follows
 * the system until the account has saved its settings.
 */
export function rememberedTheme(account: Account | null): RememberedTheme {
  const settings = account?.accessibilitySettings ?? null;
  const saved = account?.accessibilitySettingsSaved === true;
  const classes: string[] = [];
  if (settings !== null && settings.colorBlindness !== 'none') classes.push(settings.colorBlindness);
  if (settings?.lowVision === true) classes.push('low-vision');
  const scheme = settings?.colorScheme ?? READING_COMFORT_DEFAULTS.colorScheme;
  if ((settings?.readingFont ?? READING_COMFORT_DEFAULTS.readingFont) === 'dyslexia') classes.push('dyslexia-font');
  if (settings !== null && !settings.liveAnnouncements) classes.push('announcements-off');
  return {
    classes,
    dark: scheme === 'system' ? 'system' : scheme === 'dark' ? 'on' : 'off',
    reducedMotion: !saved ? 'system' : settings?.reducedMotion === true ? 'on' : 'off',
  };
}

/** The body's classes for a remembered look under the system's preferences. */
export function themeClassNames(theme: RememberedTheme, system: SystemPreferences): string[] {
  const follows = (setting: 'on' | 'off' | 'system', preferred: boolean) =>
    setting === 'on' || (setting === 'system' && preferred);
  return [
    ...theme.classes,
    ...(follows(theme.dark, system.dark) ? ['dark'] : []),
    ...(follows(theme.reducedMotion, system.reducedMotion) ? ['reduced-motion'] : []),
  ];
}
