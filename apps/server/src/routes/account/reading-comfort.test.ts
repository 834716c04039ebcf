// docs/product.md section 12: reading comfort's settings are saved beside the spec's two, a new
// account has the defaults, a save that leaves them out keeps what is stored (older clients
// keep working), and a bad value is refused with its message, changing nothing.
import { READING_COMFORT_DEFAULTS, type Account, type AccessibilitySettings } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../test/databases.ts';
import { type Call, callAs, registerUser, type TestUser } from '../../test/factories.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DATABASE_KINDS)('reading comfort settings on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.close());

  const call: Call = (...request) => callAs(t.app, ...request);
  const me = async (user: TestUser) => (await call(user, 'GET', '/api/account/me')).json<Account>();
  const save = (user: TestUser, settings: Record<string, unknown>) =>
    call(user, 'POST', '/api/account/saveAccessibilitySettings', {
      username: user.username,
      accessibilitySettings: settings,
    });

  it("a new account reads with the defaults: 'system', 'default', no reduced motion, announcements and shortcuts on", async () => {
    const user = await registerUser(t.app);
    const account = await me(user);
    expect(account.accessibilitySettings).toEqual({
      lowVision: false,
      colorBlindness: 'none',
      colorScheme: 'system',
      readingFont: 'default',
      reducedMotion: false,
      liveAnnouncements: true,
      keyboardShortcuts: true,
    });
    expect(READING_COMFORT_DEFAULTS).toEqual({
      colorScheme: 'system',
      readingFont: 'default',
      reducedMotion: false,
      liveAnnouncements: true,
      keyboardShortcuts: true,
    });
    expect(account.accessibilitySettingsSaved).toBe(false);
  });

  it('saves every setting, and a save with only the spec’s two keeps the rest', async () => {
    const user = await registerUser(t.app);
    const chosen: AccessibilitySettings = {
      lowVision: true,
      colorBlindness: 'blueyellow',
      colorScheme: 'dark',
      readingFont: 'dyslexia',
      reducedMotion: true,
      liveAnnouncements: false,
      keyboardShortcuts: false,
    };
    const saved = await save(user, chosen);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<Account>().accessibilitySettings).toEqual(chosen);
    expect((await me(user)).accessibilitySettings).toEqual(chosen);

    // An older client sends the spec's two only.
    const older = await save(user, { lowVision: false, colorBlindness: 'none' });
    expect(older.statusCode).toBe(200);
    expect((await me(user)).accessibilitySettings).toEqual({ ...chosen, lowVision: false, colorBlindness: 'none' });

    // One of them changed alone.
    await save(user, { lowVision: false, colorBlindness: 'none', colorScheme: 'light' });
    expect((await me(user)).accessibilitySettings).toEqual({
      ...chosen,
      lowVision: false,
      colorBlindness: 'none',
      colorScheme: 'light',
    });
  });

  it('refuses a bad value with its message and changes nothing', async () => {
    const user = await registerUser(t.app);
    const before = (await me(user)).accessibilitySettings;
    const spec = { lowVision: true, colorBlindness: 'grayscale' };
    const cases: [Record<string, unknown>, string][] = [
      [{ colorScheme: 'sepia' }, 'Choose a colour scheme'],
      [{ readingFont: 'comic' }, 'Choose a reading font'],
      [{ reducedMotion: 'yes' }, 'Reduced motion must be on or off'],
      [{ liveAnnouncements: 1 }, 'Live announcements must be on or off'],
      [{ keyboardShortcuts: null }, 'Keyboard shortcuts must be on or off'],
    ];
    for (const [bad, message] of cases) {
      const response = await save(user, { ...spec, colorScheme: 'dark', ...bad });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toBe(message);
    }
    expect((await me(user)).accessibilitySettings).toEqual(before);
    expect((await me(user)).accessibilitySettingsSaved).toBe(false);
  });
});
