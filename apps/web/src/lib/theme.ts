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
 * What the boot script (src/theme-boot.js) needs to set the classes before the first
 * paint, from the last account this browser showed: the classes that do not depend on the
 * system, and whether dark colours and reduced motion follow it. Kept in localStorage
 * (theme-boot.test.ts runs the script against these functions).
 */
export interface RememberedTheme {
  classes: string[];
  dark: 'on' | 'off' | 'system';
  /** 'on' when the account asks for it; otherwise the system decides (it can only add calm). */
  reducedMotion: 'on' | 'system';
}

export const REMEMBERED_THEME_KEY = 'porpoise.theme';

/**
 * The account's look, system preferences aside. A visitor signed out reads with a new
 * account's defaults: dark colours while the system prefers them. Reduced motion applies
 * while the account's setting is On or the system prefers it (a setting left Off never
 * brings motion back to someone whose system asks for none).
 */
export function rememberedTheme(account: Account | null): RememberedTheme {
  const settings = account?.accessibilitySettings ?? null;
  const classes: string[] = [];
  if (settings !== null && settings.colorBlindness !== 'none') classes.push(settings.colorBlindness);
  if (settings?.lowVision === true) classes.push('low-vision');
  const scheme = settings?.colorScheme ?? READING_COMFORT_DEFAULTS.colorScheme;
  if ((settings?.readingFont ?? READING_COMFORT_DEFAULTS.readingFont) === 'dyslexia') classes.push('dyslexia-font');
  if (settings !== null && !settings.liveAnnouncements) classes.push('announcements-off');
  return {
    classes,
    dark: scheme === 'system' ? 'system' : scheme === 'dark' ? 'on' : 'off',
    reducedMotion: settings?.reducedMotion === true ? 'on' : 'system',
  };
}

/** The last look remembered in this browser, or null (none, or storage off or unreadable). */
export function storedTheme(stored: string | null): RememberedTheme | null {
  try {
    const theme = JSON.parse(stored ?? 'null') as RememberedTheme | null;
    return theme !== null && Array.isArray(theme.classes) ? theme : null;
  } catch {
    return null;
  }
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
