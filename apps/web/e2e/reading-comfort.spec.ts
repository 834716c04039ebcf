/**
 * Reading comfort (docs/product.md section 12), issue 36: the five settings on
 * /accessibility-settings, the `dark` class following the system live and set before the first
 * paint, the dyslexia-friendly font served by the app, reduced motion, live announcements and
 * the keyboard shortcuts; axe in every scheme, colour theme and low vision. Against the built
 * server in Chromium.
 */
import { expect, type Page } from '@playwright/test';
import type { AccessibilitySettings, Question } from '@porpoise/core';
import { ANNOUNCE_REFILL_MS, ANNOUNCE_STREAM_MS } from '../src/lib/announcer';
import {
  adminPage,
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  gotoWhenSocketOpen,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
} from './support.ts';

const SPEC_TWO = { lowVision: false, colorBlindness: 'none' } as const;

/** Saves the account's settings through the API (the spec's two and any of reading comfort's). */
async function saveSettings(page: Page, username: string, settings: Partial<AccessibilitySettings>): Promise<void> {
  const response = await page.request.post('/api/account/saveAccessibilitySettings', {
    data: { username, accessibilitySettings: { ...SPEC_TWO, ...settings } },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Holds the app's own scripts (every /assets/*.js but the theme's boot script) until the
 * returned function releases them: the page as it is before the app runs.
 */
async function holdAppScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) =>
      url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js') && !url.pathname.includes('theme-boot'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  return release;
}

/** A class of the body, as a whole word. */
const bodyClass = (name: string) => new RegExp(`(^|\\s)${name}(\\s|$)`);

/** The option a select shows. */
const shown = (page: Page, label: string) => page.getByLabel(label, { exact: true }).locator('option:checked');

test.describe('the reading comfort settings', () => {
  test('show the defaults, save with the spec’s two, and show the saved values on the next visit', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/accessibility-settings');
    await expect(shown(page, 'Colour scheme')).toHaveText('Follow the system');
    await expect(shown(page, 'Reading font')).toHaveText('Default');
    await expect(shown(page, 'Reduced motion')).toHaveText('Off');
    await expect(shown(page, 'Live announcements')).toHaveText('On');
    await expect(shown(page, 'Keyboard shortcuts')).toHaveText('On');

    await page.getByLabel('Do you have low vision?').selectOption({ label: 'No' });
    await page.getByLabel('Colour blindness').selectOption({ label: 'Red-Green' });
    await page.getByLabel('Colour scheme', { exact: true }).selectOption({ label: 'Dark' });
    await page.getByLabel('Reading font', { exact: true }).selectOption({ label: 'Dyslexia-friendly' });
    await page.getByLabel('Reduced motion', { exact: true }).selectOption({ label: 'On' });
    await page.getByLabel('Live announcements', { exact: true }).selectOption({ label: 'Off' });
    await page.getByLabel('Keyboard shortcuts', { exact: true }).selectOption({ label: 'Off' });
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page).toHaveURL(/\/home$/);
    const body = page.locator('body');
    for (const name of ['redgreen', 'dark', 'dyslexia-font', 'reduced-motion', 'announcements-off']) {
      await expect(body).toHaveClass(bodyClass(name));
    }

    await page.goto('/accessibility-settings');
    await expect(shown(page, 'Colour scheme')).toHaveText('Dark');
    await expect(shown(page, 'Reading font')).toHaveText('Dyslexia-friendly');
    await expect(shown(page, 'Reduced motion')).toHaveText('On');
    await expect(shown(page, 'Live announcements')).toHaveText('Off');
    await expect(shown(page, 'Keyboard shortcuts')).toHaveText('Off');
    await expect(shown(page, 'Colour blindness')).toHaveText('Red-Green');
  });
});

test.describe('the dark scheme', () => {
  test('Follow the system: `dark` follows an emulated change without a reload; Light and Dark hold', async ({
    page,
  }) => {
    const { username } = await registerViaApi(page.request);
    const body = page.locator('body');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).not.toHaveClass(bodyClass('dark'));
    await page.evaluate(() => document.body.setAttribute('data-same-page', 'yes'));

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(body).toHaveClass(bodyClass('dark'));
    // Designed dark colours, on the page that was open all along.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(13, 17, 23)');
    await expect(body).toHaveAttribute('data-same-page', 'yes');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(body).not.toHaveClass(bodyClass('dark'));
    await expect(body).toHaveAttribute('data-same-page', 'yes');

    await saveSettings(page, username, { colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).not.toHaveClass(bodyClass('dark'));

    await saveSettings(page, username, { colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await expect(body).toHaveClass(bodyClass('dark'));
  });

  test('the class is on the body before the app has run: no flash of light colours', async ({ browser, baseURL }) => {
    // A member who chose Dark, on a light system, coming back.
    const { page } = await member(browser, baseURL, 'dk', { colorScheme: 'light' });
    const { username } = (await (await page.request.get('/api/account/me')).json()) as { username: string };
    await saveSettings(page, username, { colorScheme: 'dark' });
    await page.goto('/home');
    await expect(page.locator('body')).toHaveClass(bodyClass('dark'));

    // The app's own scripts are held: only the boot script runs.
    const release = await holdAppScripts(page);
    // (Module scripts hold DOMContentLoaded back: the page is looked at as it streams in.)
    await page.goto('/home', { waitUntil: 'commit' });
    // Only index.html's own loading text: the app has not drawn anything.
    await expect(page.locator('#root')).toHaveText('Loading…');
    await expect(page.locator('body')).toHaveClass(bodyClass('dark'));
    release();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('body')).toHaveClass(bodyClass('dark'));

    // A first visit on a dark system: a new account's default, Follow the system.
    const context = await browser.newContext({ baseURL, colorScheme: 'dark' });
    try {
      const visitor = await context.newPage();
      const releaseVisitor = await holdAppScripts(visitor);
      await visitor.goto('/', { waitUntil: 'commit' });
      await expect(visitor.locator('#root')).toHaveText('Loading…');
      await expect(visitor.locator('body')).toHaveClass(bodyClass('dark'));
      releaseVisitor();
    } finally {
      await context.close();
    }
  });
});

test.describe('the dyslexia-friendly font', () => {
  test('OpenDyslexic from our own origin, with wider letter spacing and line height; never fetched otherwise', async ({
    page,
    baseURL,
  }) => {
    const fonts: string[] = [];
    page.on('request', (request) => {
      if (/\.woff2?$/.test(new URL(request.url()).pathname)) fonts.push(request.url());
    });
    const { username } = await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const measure = () =>
      page.evaluate(() => {
        const style = getComputedStyle(document.querySelector('p') ?? document.body);
        return {
          family: getComputedStyle(document.body).fontFamily,
          letterSpacing: parseFloat(style.letterSpacing) || 0,
          lineHeight: parseFloat(style.lineHeight) / parseFloat(style.fontSize),
        };
      });
    const plain = await measure();
    await page.evaluate(() => document.fonts.ready);
    expect(plain.family).not.toContain('OpenDyslexic');
    expect(fonts).toEqual([]);

    await saveSettings(page, username, { readingFont: 'dyslexia' });
    const fontRequest = page.waitForRequest((request) => /opendyslexic.*\.woff2$/i.test(request.url()));
    await page.reload();
    const request = await fontRequest;
    expect(request.url().startsWith(`${baseURL}/assets/`)).toBe(true);
    expect((await request.response())?.status()).toBe(200);
    await expect(page.locator('body')).toHaveClass(bodyClass('dyslexia-font'));
    await page.waitForFunction(() => document.fonts.check('16px OpenDyslexic'));
    const dyslexic = await measure();
    expect(dyslexic.family.startsWith('OpenDyslexic')).toBe(true);
    expect(dyslexic.letterSpacing).toBeGreaterThan(plain.letterSpacing);
    expect(dyslexic.lineHeight).toBeGreaterThan(plain.lineHeight + 0.1);
  });
});

test.describe('reduced motion', () => {
  const skipLinkTransition = (page: Page) =>
    page.evaluate(() => getComputedStyle(document.querySelector('.skip-link')!).transitionDuration);

  test('On always; Off leaves it to the system, followed live', async ({ page }) => {
    const { username } = await registerViaApi(page.request);
    const body = page.locator('body');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).toHaveClass(bodyClass('reduced-motion'));
    expect(await skipLinkTransition(page)).toBe('0s');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect(body).not.toHaveClass(bodyClass('reduced-motion'));
    expect(await skipLinkTransition(page)).toBe('0.15s');

    await saveSettings(page, username, { reducedMotion: true });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).toHaveClass(bodyClass('reduced-motion'));
    expect(await skipLinkTransition(page)).toBe('0s');

    // Saved Off (a colour theme chosen with it): the system still decides, never motion forced on it.
    await saveSettings(page, username, { reducedMotion: false, colorBlindness: 'redgreen' });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).not.toHaveClass(bodyClass('reduced-motion'));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect(body).toHaveClass(bodyClass('reduced-motion'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(body).toHaveClass(bodyClass('reduced-motion'));
  });
});

/** Keeps everything the page's live region is filled with from now on (announcementsHeard reads it). */
async function recordAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    const live = document.getElementById('live-announcer')!;
    new MutationObserver(() => {
      if (live.textContent !== '') heard.push(live.textContent ?? '');
    }).observe(live, { childList: true, characterData: true, subtree: true });
  });
}

/**
 * What the region was filled with since recordAnnouncements, once what has arrived has had
 * time to be said: a timer set now fires after any the announcer set for an earlier arrival
 * (none waits longer than a gathering after a sentence, then the refill).
 */
async function announcementsHeard(page: Page): Promise<string[]> {
  const longest = ANNOUNCE_STREAM_MS + ANNOUNCE_REFILL_MS;
  await page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), longest);
  return page.evaluate(() => (window as unknown as { heard: string[] }).heard);
}

test.describe('live announcements', () => {
  const region = (page: Page) => page.locator('#live-announcer');

  test('a new answer on the open question within 3 s, focus never moved; silent when Off', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'ask');
    const question = await askViaApi(asker.page, asker.account.username, `Announced ${stamp()}`);
    const reader = await member(browser, baseURL, 'read');
    const quiet = await member(browser, baseURL, 'quiet');
    await saveSettings(quiet.page, quiet.account.username, { liveAnnouncements: false });
    const answerer = await member(browser, baseURL, 'ans');

    for (const { page } of [reader, quiet]) await gotoWhenQuestionsWatched(page, `/question/${question._id}`);
    // Everything the quiet reader's region is ever filled with, from now on.
    await recordAnnouncements(quiet.page);
    await expect(region(reader.page)).toHaveAttribute('aria-live', 'polite');
    await expect(region(reader.page)).toBeEmpty();
    // The reader is somewhere on the page; the announcement must leave them there.
    await reader.page.getByRole('link', { name: asker.account.username }).first().focus();
    await reader.page.evaluate(() => document.activeElement?.setAttribute('data-was-focused', 'yes'));

    await answerViaApi(answerer.page, answerer.account.username, question._id, 'Here is how.');
    await expect(region(reader.page)).toHaveText(`New answer by ${answerer.account.username}`, { timeout: 3000 });
    expect(await reader.page.evaluate(() => document.activeElement?.getAttribute('data-was-focused'))).toBe('yes');

    // The quiet reader got the answer, and hears nothing.
    await expect(quiet.page.getByText('Here is how.')).toBeVisible();
    await expect(quiet.page.locator('body')).toHaveClass(bodyClass('announcements-off'));
    expect(await announcementsHeard(quiet.page)).toEqual([]);
  });

  test('answers to the asker’s own open question: each said once, never again as a notification', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'own');
    const question = await askViaApi(asker.page, asker.account.username, `Burst ${stamp()}`);
    const answerers = await Promise.all(['b1', 'b2', 'b3'].map((prefix) => member(browser, baseURL, prefix)));
    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);
    await recordAnnouncements(asker.page);
    await Promise.all(
      answerers.map(({ page, account }) =>
        answerViaApi(page, account.username, question._id, `From ${account.username}`),
      ),
    );
    for (const { account } of answerers) await expect(asker.page.getByText(`From ${account.username}`)).toBeVisible();
    await expect(asker.page.getByRole('link', { name: 'Notifications, 3 unread' })).toBeVisible();
    const heard = await announcementsHeard(asker.page);
    // However the three arrivals fell into gatherings: three answers in all, and no notification about them.
    const answersSaid = heard
      .flatMap((sentence) => sentence.split('. '))
      .map((part) => (part.startsWith('New answer by ') ? 1 : Number(/^(\d+) new answers$/.exec(part)?.[1] ?? NaN)));
    expect(
      answersSaid.reduce((sum, count) => sum + count, 0),
      heard.join(' | '),
    ).toBe(3);
  });

  test('a new message in the open thread, and a new notification', async ({ browser, baseURL }) => {
    const me = await member(browser, baseURL, 'me');
    const other = await member(browser, baseURL, 'oth');
    const thread = (await (
      await other.page.request.post('/api/thread/addThread', {
        data: {
          messages: [],
          accounts: [other.account.username, me.account.username],
          threadUpdatedDateTime: new Date().toISOString(),
        },
      })
    ).json()) as { _id: string };
    await gotoWhenSocketOpen(me.page, `/threads/${thread._id}`);
    // The thread is on screen (its listener too) before anything is sent.
    await expect(me.page.getByText('No messages yet.')).toBeVisible();
    const sent = await other.page.request.post('/api/message/addMessage', {
      data: {
        tid: thread._id,
        msg: {
          content: 'Are you there?',
          sender: other.account.username,
          messageDateTime: new Date().toISOString(),
          views: [other.account.username],
          likes: [],
        },
      },
    });
    expect(sent.status()).toBe(200);
    await expect(region(me.page)).toHaveText(`New message from ${other.account.username}`, { timeout: 3000 });

    // My question, answered while I read the list: the notification is read out.
    const question: Question = await askViaApi(me.page, me.account.username, `Notified ${stamp()}`);
    await gotoWhenSocketOpen(me.page, '/home');
    await expect(me.page.getByRole('link', { name: 'Notifications, 0 unread' })).toBeVisible();
    await answerViaApi(other.page, other.account.username, question._id, 'An answer for you.');
    await expect(region(me.page)).toHaveText(`${other.account.username} answered your question`, {
      timeout: 3000,
    });
  });
});

test.describe('keyboard shortcuts', () => {
  // axe-core is added to the page as a script.
  test.use({ bypassCSP: true });
  test("'?' lists them in a dialog named 'Keyboard shortcuts'; Escape closes it", async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    for (const key of ['?', '/', 'a', 'j', 'k', 'Enter', 'Escape']) {
      await expect(dialog.locator('kbd', { hasText: new RegExp(`^${key === '?' ? '\\?' : key}$`) })).toHaveCount(1);
    }
    await expectNoSeriousAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test("'/' goes to the search box without typing '/', on /home and from another page", async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search questions' });
    await expect(search).toBeFocused();
    await expect(search).toHaveValue('');

    await page.goto('/tags');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('/');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('searchbox', { name: 'Search questions' })).toBeFocused();
    await expect(page.getByRole('searchbox', { name: 'Search questions' })).toHaveValue('');
  });

  test("'a' asks; 'j' and 'k' move through the questions on /home and Enter opens one", async ({ page }) => {
    const { username } = await registerViaApi(page.request);
    const titles = [`Third ${stamp()}`, `Second ${stamp()}`, `First ${stamp()}`];
    for (const title of titles) await askViaApi(page, username, title);
    await page.goto('/home');
    const rows = page.locator('.q-row__link');
    await expect(rows.first()).toHaveText(titles[2]!);
    await page.keyboard.press('j');
    await expect(rows.nth(0)).toBeFocused();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(rows.nth(2)).toBeFocused();
    await page.keyboard.press('k');
    await expect(rows.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: titles[1] })).toBeVisible();

    await page.keyboard.press('a');
    await expect(page).toHaveURL(/\/new\/question$/);
  });

  test('none fire while typing in a field or with Ctrl held, nor when the setting is Off', async ({ page }) => {
    // Every key the page took as a shortcut: the hook prevents each one it handles, and a
    // listener on the window hears the key after it (so a navigation or a lazy dialog that
    // would come later cannot be missed by checking too soon).
    const recordKeys = () =>
      page.evaluate(() => {
        const keys: string[] = [];
        (window as unknown as { handledKeys: string[] }).handledKeys = keys;
        window.addEventListener('keydown', (event) => {
          if (event.defaultPrevented) keys.push(event.key);
        });
      });
    const handledKeys = () => page.evaluate(() => (window as unknown as { handledKeys: string[] }).handledKeys);

    const { username } = await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await recordKeys();
    const search = page.getByRole('searchbox', { name: 'Search questions' });
    await search.click();
    await page.keyboard.type('a/j?');
    await expect(search).toHaveValue('a/j?');

    await page.locator('h1').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Alt+/');
    await page.keyboard.press('Meta+j');
    expect(await handledKeys()).toEqual([]);
    await expect(search).not.toBeFocused();
    // The recorder hears a shortcut that does fire.
    await page.keyboard.press('j');
    expect(await handledKeys()).toEqual(['j']);

    await saveSettings(page, username, { keyboardShortcuts: false });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await recordKeys();
    for (const key of ['?', '/', 'a', 'j', 'k']) await page.keyboard.press(key);
    expect(await handledKeys()).toEqual([]);
    await expect(page).toHaveURL(/\/home$/);
    await expect(search).not.toBeFocused();
    // The setting is what silenced them: On again, they work.
    await saveSettings(page, username, { keyboardShortcuts: true });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await recordKeys();
    await page.keyboard.press('?');
    expect(await handledKeys()).toEqual(['?']);
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  });

  test("'/' from another page focuses the search box once: not again after a reload", async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/tags');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search questions' });
    await expect(search).toBeFocused();
    await page.reload();
    // Mounted with the page (autofocus would act in the same commit): not focused now is not focused at all.
    await expect(search).toBeVisible();
    expect(await search.evaluate((element) => element === document.activeElement)).toBe(false);
  });
});

test.describe('every scheme, colour theme and low vision', () => {
  test.use({ bypassCSP: true });

  test('a closed question with code, its revision diff and the settings pass axe in all 16', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const { username } = await registerViaApi(page.request);
    const question = await askViaApi(page, username, `Dark axe ${stamp()}`, {
      text: [
        'Why does this fail?',
        '',
        '```ts',
        'const sonar: string = "ping"; // a comment',
        'if (sonar) { return 42; }',
        '```',
      ].join('\n'),
    });
    const edited = await page.request.put(`/api/question/${question._id}`, {
      data: { title: `${question.title} again`, text: 'Changed words here.', tags: question.tags, reason: 'clearer' },
    });
    expect(edited.status()).toBe(200);
    await answerViaApi(
      page,
      username,
      question._id,
      ['A fix:', '', '```js', 'let depth = 10; // metres', '```'].join('\n'),
    );
    const moderator = await adminPage(browser, baseURL);
    const closed = await moderator.request.post(`/api/question/${question._id}/close`, {
      data: { reason: 'needs details' },
    });
    expect(closed.status()).toBe(200);

    // Dark by the account's settings; expectNoSeriousAxeViolations checks light colours too.
    for (const lowVision of [false, true]) {
      for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
        await overrideAccessibilitySettings(page, { colorScheme: 'dark', lowVision, colorBlindness });
        await page.goto(`/question/${question._id}`);
        await expect(page.getByRole('note', { name: 'Closed' })).toBeVisible();
        await expect(page.locator('body')).toHaveClass(bodyClass('dark'));
        await expectNoSeriousAxeViolations(page);
        await page.goto(`/history/question/${question._id}`);
        await expect(page.locator('.diff__added').first()).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await page.goto('/accessibility-settings');
        await expect(page.getByLabel('Colour scheme', { exact: true })).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await page.unrouteAll({ behavior: 'wait' });
      }
    }
  });
});
