import { READING_COMFORT_DEFAULTS, type Account, type AccessibilitySettings } from '@porpoise/core';
import { describe, expect, it } from 'vitest';
import { rememberedTheme, themeClassNames } from './theme';

const account = (settings: Partial<AccessibilitySettings>, saved = true): Account => ({
  username: 'ann',
  email: 'ann@example.com',
  role: 'member',
  createdAt: '2026-01-01T00:00:00.000Z',
  accessibilitySettings: { lowVision: false, colorBlindness: 'none', ...READING_COMFORT_DEFAULTS, ...settings },
  accessibilitySettingsSaved: saved,
  followedTags: [],
  digest: 'weekly',
  reputation: 1,
});
const light = { dark: false, reducedMotion: false };
const darkSystem = { dark: true, reducedMotion: true };

describe("the body's classes (docs/product.md sections 5 and 12)", () => {
  it('a visitor signed out reads with the defaults: dark and still only while the system prefers them', () => {
    expect(themeClassNames(rememberedTheme(null), light)).toEqual([]);
    expect(themeClassNames(rememberedTheme(null), darkSystem)).toEqual(['dark', 'reduced-motion']);
  });

  it("'dark' exactly while dark colours apply: Dark always, Light never, Follow the system as it says", () => {
    expect(themeClassNames(rememberedTheme(account({ colorScheme: 'dark' })), light)).toContain('dark');
    expect(themeClassNames(rememberedTheme(account({ colorScheme: 'light' })), darkSystem)).not.toContain('dark');
    expect(themeClassNames(rememberedTheme(account({ colorScheme: 'system' })), darkSystem)).toContain('dark');
    expect(themeClassNames(rememberedTheme(account({ colorScheme: 'system' })), light)).not.toContain('dark');
  });

  it('reduced motion: On always; otherwise (Off, saved or not) as the system prefers', () => {
    for (const saved of [false, true]) {
      const off = rememberedTheme(account({ reducedMotion: false }, saved));
      expect(themeClassNames(off, darkSystem)).toContain('reduced-motion');
      expect(themeClassNames(off, light)).not.toContain('reduced-motion');
    }
    expect(themeClassNames(rememberedTheme(account({ reducedMotion: true })), light)).toContain('reduced-motion');
  });

  it('the colour theme, low vision, the reading font and silenced announcements each have their class', () => {
    const theme = rememberedTheme(
      account({
        colorBlindness: 'blueyellow',
        lowVision: true,
        colorScheme: 'light',
        readingFont: 'dyslexia',
        liveAnnouncements: false,
      }),
    );
    expect(themeClassNames(theme, light)).toEqual(['blueyellow', 'low-vision', 'dyslexia-font', 'announcements-off']);
    expect(themeClassNames(rememberedTheme(account({ colorScheme: 'light' })), light)).toEqual([]);
  });
});
