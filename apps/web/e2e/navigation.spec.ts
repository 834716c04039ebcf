import { expect } from '@playwright/test';
import { registerViaApi, test } from './support.ts';

test.describe('signed-in layout', () => {
  test("the header's username button is named after the user and opens /profile", async ({ page }) => {
    const account = await registerViaApi(page.request);
    await page.goto('/home');
    const button = page.getByRole('button', { name: `Go to ${account.username}'s profile` });
    await expect(button).toHaveAccessibleName(`Go to ${account.username}'s profile`);
    await expect(button).toContainText(account.username);
    await expect(page.getByRole('banner').getByRole('img', { name: 'Porpoise' })).toBeVisible();
    await button.click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  });

  test('the active menu item carries aria-current="page" on /home and /tags', async ({ page }) => {
    await registerViaApi(page.request);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await page.goto('/home');
    await expect(menu.getByRole('link', { name: 'Questions' })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'Tags' })).not.toHaveAttribute('aria-current', 'page');

    await menu.getByRole('link', { name: 'Tags' }).click();
    await expect(page).toHaveURL(/\/tags$/);
    await expect(menu.getByRole('link', { name: 'Tags' })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'Questions' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^All \d+ Wonderful Tags$/);
  });

  test('the skip link moves focus to the main content', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The skip link is the first thing the keyboard reaches on the page.
    const firstFocusable = await page.evaluate(
      () =>
        document.querySelector<HTMLElement>('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
          ?.textContent,
    );
    expect(firstFocusable).toBe('Skip to main content');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await skip.focus();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main-content')).toBeFocused();
  });

  test('a question address without an id goes to /home', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/question');
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('open screens', () => {
  test('an unknown page shows the not-found screen', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Questions' })).toHaveAttribute('href', '/home');
  });

  test('pages load without Content-Security-Policy violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    for (const path of ['/', '/register', '/login', '/no/such/page']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    }
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });
});
