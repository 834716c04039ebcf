import { expect } from '@playwright/test';
import {
  expectNoSeriousAxeViolations,
  newTestAccount,
  overrideAccessibilitySettings,
  registerThroughUi,
  registerViaApi,
  test,
  type Palette,
} from './support.ts';
import type { AccessibilitySettings } from '@porpoise/core';

// axe-core is injected as a script, which the app's CSP (script-src 'self') would block.
test.use({ bypassCSP: true });

test.describe('axe-core finds no serious or critical violations', () => {
  for (const path of ['/', '/register', '/login']) {
    test(`on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
    });
  }

  test('on the API reference page, /api/docs, light and dark', async ({ page }) => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto('/api/docs');
      await expect(page.getByRole('heading', { level: 1, name: 'Porpoise API reference' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 3, name: 'GET /api/getQuestionById/{id}' })).toBeVisible();
      await page.getByText('Answer (200)').first().click();
      await expectNoSeriousAxeViolations(page);
    }
  });

  test('on /register with an error shown', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // Each empty field's error beside it.
    await expect(page.getByRole('alert')).toHaveCount(3);
    await expectNoSeriousAxeViolations(page);
  });

  test('on /home', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  test('on /home at phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  const themes: Palette[] = [
    { lowVision: true, colorBlindness: 'none' },
    { lowVision: false, colorBlindness: 'redgreen' },
    { lowVision: false, colorBlindness: 'blueyellow' },
    { lowVision: true, colorBlindness: 'grayscale' },
  ];
  for (const settings of themes) {
    test(`on /profile in the ${settings.colorBlindness} palette${settings.lowVision ? ' with low vision' : ''}`, async ({
      page,
    }) => {
      await registerThroughUi(page);
      await overrideAccessibilitySettings(page, settings);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
    });
  }
});

// Issue 22's screens: errors beside their fields, hints, the signed-in /, a forum's discussion.
test.describe("axe-core on issue 22's screens in every theme", () => {
  test('/login with an error, and / keeping a deep link', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toHaveCount(2);
    await expectNoSeriousAxeViolations(page);
    await page.goto('/home?tag=x');
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', /redirectTo=/);
    await expectNoSeriousAxeViolations(page);
  });

  const palettes: AccessibilitySettings['colorBlindness'][] = ['none', 'redgreen', 'blueyellow', 'grayscale'];
  for (const colorBlindness of palettes) {
    for (const lowVision of [false, true]) {
      test(`${colorBlindness}${lowVision ? ' with low vision' : ''}`, async ({ page }) => {
        test.setTimeout(90_000);
        const account = newTestAccount('axe');
        const created = await page.request.post('/api/account/addAccount', {
          data: { ...account, createdAt: new Date().toISOString() },
        });
        expect(created.status()).toBe(200);
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        const asked = await page.request.post('/api/addQuestion', {
          data: { title: 'Axe question', text: 'Checked in every theme.', tags: [{ name: 'axe' }] },
        });
        const { _id: qid } = (await asked.json()) as { _id: string };
        const forum = await page.request.post('/api/forum/addForum', {
          data: { name: `Axe forum ${account.username}`, description: 'Every theme.' },
        });
        const { thread: forumThread } = (await forum.json()) as { thread: string };
        const themed = [colorBlindness === 'none' ? '' : colorBlindness, lowVision ? 'low-vision' : '']
          .join(' ')
          .trim();
        const shot = (name: string) =>
          page.screenshot({ path: `/tmp/shots-22/${name}-${colorBlindness}${lowVision ? '-lv' : ''}.png` });

        const check = async (path: string, act: () => Promise<void>) => {
          await page.goto(path);
          await expect(page.locator('body')).toHaveClass(themed);
          await act();
          await expectNoSeriousAxeViolations(page);
        };
        await check('/', async () => {
          await expect(page.getByRole('link', { name: 'Go to Questions' })).toBeVisible();
          await page.getByRole('button', { name: 'Submit' }).click();
          await expect(page.getByRole('alert')).toBeVisible();
          await shot('landing-signed-in');
        });
        await check('/new/question', async () => {
          await page.getByRole('button', { name: 'Post Question' }).click();
          await expect(page.getByRole('alert')).toHaveCount(3);
          await shot('ask-errors');
        });
        await check(`/new/answer/${qid}`, async () => {
          await page.getByRole('button', { name: 'Post Answer' }).click();
          await expect(page.getByRole('alert')).toHaveCount(1);
        });
        await check(`/question/${qid}`, async () => {
          await expect(page.getByRole('heading', { level: 1, name: 'Axe question' })).toBeVisible();
          await shot('question');
        });
        await check(`/threads/${forumThread}`, async () => {
          await expect(page.getByRole('link', { name: 'All forums' })).toBeVisible();
          await expect(
            page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Forums' }),
          ).toHaveAttribute('aria-current', 'page');
          await shot('forum-thread');
        });
        await check('/new/forum', async () => {
          await page.getByRole('button', { name: 'Create Forum' }).click();
          await expect(page.getByRole('alert')).toHaveCount(2);
          await shot('forum-errors');
        });
        await check('/accessibility-settings', async () => {
          await page.getByRole('button', { name: 'Save Preferences' }).click();
          await expect(page.getByRole('alert')).toHaveCount(2);
          await shot('settings-errors');
        });
        await check('/profile', async () => {
          await page.getByRole('button', { name: 'Edit Bio' }).click();
          await expect(page.getByLabel('Edit your bio')).toBeFocused();
        });
      });
    }
  }
});
