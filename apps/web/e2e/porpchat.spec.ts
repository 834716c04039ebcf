import { expect, type Page } from '@playwright/test';
import {
  expectNoSeriousAxeViolations,
  newTestAccount,
  overrideAccessibilitySettings,
  registerViaApi,
  test,
  type Palette,
} from './support.ts';
import { MESSAGES } from '@porpoise/core';

const THEMES: Palette[] = [false, true].flatMap((lowVision) =>
  (['none', 'redgreen', 'blueyellow', 'grayscale'] as const).map((colorBlindness) => ({ lowVision, colorBlindness })),
);
const WIDTHS = [390, 1280];

/** Counts the page's posts to PorpChat from now on. */
function countMessagePosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/message/addMessage')) posts += 1;
  });
  return () => posts;
}

test.describe('PorpChat entry', () => {
  test('a name is required', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Username cannot be empty/);
    await expect(page).toHaveURL(/\/$/);
  });

  test('submitting a name opens /porpchat', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'Create Your Account' })).toHaveAttribute('href', '/register');
    await page.getByLabel('Username').fill('Guest Porpoise');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/porpchat$/);
    await expect(page.getByRole('heading', { level: 1, name: 'PorpChat' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('porpUsername'))).toBe('Guest Porpoise');
  });

  test('/porpchat without a name goes back to /', async ({ page }) => {
    await page.goto('/porpchat');
    await expect(page).toHaveURL(/\/$/);
  });

  test('/porp shows the same entry screen', async ({ page }) => {
    await page.goto('/porp');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
  });

  test('signed in, / and /porp offer PorpChat and the questions, not the sign-in links', async ({ page }) => {
    await registerViaApi(page.request);
    for (const path of ['/', '/porp']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
      await expect(page.getByLabel('Username')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
      const links = page.getByRole('navigation', { name: 'Account' }).getByRole('link');
      await expect(links).toHaveText(['Go to Questions']);
      await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
      await expect(page.getByRole('link', { name: 'Create Your Account' })).toHaveCount(0);
    }
    await page.getByRole('link', { name: 'Go to Questions' }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

// Issue 32 item 6 (docs/product.md section 5, 'A member's first week').
test.describe('PorpChat for members', () => {
  test.use({ bypassCSP: true });

  for (const width of WIDTHS) {
    test(`at ${width} px, a member's menu links to PorpChat, and /porpchat keeps the header and menu`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const account = await registerViaApi(page.request);
      await page.goto('/home');
      const menu = page.getByRole('navigation', { name: 'Main' });
      const porpchat = menu.getByRole('link', { name: 'PorpChat' });
      await expect(porpchat).toHaveAttribute('href', '/');
      await expect(porpchat).toBeInViewport();
      await porpchat.click();
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
      await page.getByLabel('Username').fill('Member on a break');
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page).toHaveURL(/\/porpchat$/);
      await expect(page.getByRole('heading', { level: 1, name: 'PorpChat' })).toBeVisible();
      await expect(page.getByRole('button', { name: `Go to ${account.username}'s profile` })).toBeVisible();
      await expect(menu.getByRole('link', { name: 'PorpChat' })).toHaveAttribute('aria-current', 'page');
      await expect(menu.getByRole('link', { name: 'Questions' })).not.toHaveAttribute('aria-current', 'page');
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await menu.getByRole('link', { name: 'Questions' }).click();
      await expect(page).toHaveURL(/\/home$/);
    });
  }

  test("a signed-out visitor keeps the spec's /porpchat: no header, no menu", async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Username').fill('Just visiting');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'PorpChat' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(page.getByRole('banner')).toHaveCount(0);
  });

  for (const width of WIDTHS) {
    test(`at ${width} px, a member's name is refused on joining, beside the field, before any message`, async ({
      browser,
      baseURL,
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const owner = newTestAccount('owner');
      const signUp = await (
        await browser.newContext({ baseURL })
      ).request.post('/api/account/addAccount', {
        data: { ...owner, createdAt: new Date().toISOString() },
      });
      expect(signUp.status()).toBe(200);
      const posts = countMessagePosts(page);
      await page.goto('/');
      const field = page.getByLabel('Username');
      await field.fill(owner.username.toUpperCase());
      await page.getByRole('button', { name: 'Submit' }).click();
      const error = page.locator('.field-error');
      await expect(error).toHaveText(`Error: ${MESSAGES.porpNameTaken}`);
      await expect(field).toHaveAccessibleDescription(/That name belongs to a member/);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toBeFocused();
      await expect(page).toHaveURL(/\/$/);
      expect(await page.evaluate(() => sessionStorage.getItem('porpUsername'))).toBeNull();
      expect(posts()).toBe(0);
      // Another name goes through.
      await field.fill(`Not ${owner.username}`.slice(0, 30));
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page).toHaveURL(/\/porpchat$/);
      expect(posts()).toBe(0);
    });
  }

  test('/porpchat as a member and the join error pass axe in every theme', async ({ page }) => {
    test.setTimeout(120_000);
    const other = await registerViaApi(page.request);
    await page.context().clearCookies();
    const account = await registerViaApi(page.request);
    expect(account.username).not.toBe(other.username);
    for (const settings of THEMES) {
      await overrideAccessibilitySettings(page, settings);
      await page.goto('/');
      await page.getByLabel('Username').fill(other.username);
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.locator('.field-error')).toContainText(MESSAGES.porpNameTaken);
      await expectNoSeriousAxeViolations(page);
      await page.getByLabel('Username').fill('Axe visitor');
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'PorpChat' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      await expectNoSeriousAxeViolations(page);
      await page.unrouteAll({ behavior: 'wait' });
    }
  });
});
