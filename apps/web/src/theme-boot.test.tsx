// docs/product.md section 12: the boot script sets the body's classes before the first paint;
// the app then keeps them. Both must agree, or a class would flip as the app takes over.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { READING_COMFORT_DEFAULTS, type Account, type AccessibilitySettings } from '@porpoise/core';
import { describe, expect, it } from 'vitest';
import {
  REMEMBERED_THEME_KEY,
  rememberedTheme,
  storedTheme,
  themeClassNames,
  type SystemPreferences,
} from './lib/theme';

const source = readFileSync(path.join(import.meta.dirname, 'theme-boot.js'), 'utf8');

/** The body's class after the boot script ran with this storage and these system preferences. */
function boot(
  stored: string | null,
  system: SystemPreferences,
  storageThrows = false,
): { className: string; keys: string[] } {
  const keys: string[] = [];
  const body = { className: '' };
  const localStorage = {
    getItem(key: string) {
      keys.push(key);
      if (storageThrows) throw new Error('storage off');
      return stored;
    },
  };
  const matchMedia = (query: string) => ({
    matches:
      (query === '(prefers-color-scheme: dark)' && system.dark) ||
      (query === '(prefers-reduced-motion: reduce)' && system.reducedMotion),
  });
  runInNewContext(source, { window: { localStorage, matchMedia }, document: { body } });
  return { className: body.className, keys };
}

const account = (settings: Partial<AccessibilitySettings>): Account => ({
  username: 'ann',
  email: 'ann@example.com',
  role: 'member',
  createdAt: '2026-01-01T00:00:00.000Z',
  accessibilitySettings: { lowVision: false, colorBlindness: 'none', ...READING_COMFORT_DEFAULTS, ...settings },
  accessibilitySettingsSaved: true,
  followedTags: [],
  digest: 'weekly',
  reputation: 1,
});

const SYSTEMS: SystemPreferences[] = [
  { dark: false, reducedMotion: false },
  { dark: true, reducedMotion: false },
  { dark: false, reducedMotion: true },
  { dark: true, reducedMotion: true },
];

const ACCOUNTS: Array<Account | null> = [
  null,
  account({}),
  account({ colorScheme: 'dark', reducedMotion: true }),
  account({ colorScheme: 'light', readingFont: 'dyslexia', liveAnnouncements: false }),
  account({ colorBlindness: 'redgreen', lowVision: true, colorScheme: 'system' }),
  account({ colorBlindness: 'grayscale', colorScheme: 'dark', keyboardShortcuts: false }),
];

describe('the boot script and the app agree (src/theme-boot.js, lib/theme.ts)', () => {
  it('reads the key the app writes', () => {
    expect(boot(null, SYSTEMS[0]!).keys).toEqual([REMEMBERED_THEME_KEY]);
  });

  it('sets the classes the app would, for every look remembered under every system preference', () => {
    for (const shown of ACCOUNTS) {
      const remembered = JSON.stringify(rememberedTheme(shown));
      for (const system of SYSTEMS) {
        const expected = themeClassNames(storedTheme(remembered)!, system).join(' ');
        expect(boot(remembered, system).className, `${remembered} ${JSON.stringify(system)}`).toBe(expected);
      }
    }
  });

  it("a browser with nothing remembered, storage off or a damaged value gets a visitor's look", () => {
    for (const system of SYSTEMS) {
      const visitor = themeClassNames(rememberedTheme(null), system).join(' ');
      expect(boot(null, system).className).toBe(visitor);
      expect(boot('{"classes": 7', system).className).toBe(visitor);
      expect(boot('"dark"', system).className).toBe(visitor);
      expect(boot(null, system, true).className).toBe(visitor);
    }
  });

  it('takes no class that is not a plain name from storage', () => {
    const hostile = JSON.stringify({
      classes: ['dark" onload="x', 'a b', 'low-vision'],
      dark: 'off',
      reducedMotion: 'system',
    });
    expect(boot(hostile, SYSTEMS[0]!).className).toBe('low-vision');
  });
});
