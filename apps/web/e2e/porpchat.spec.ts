import { expect, test } from '@playwright/test';
import { registerThroughUi } from './support';

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
    await registerThroughUi(page);
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
