import { expect, test } from '@playwright/test';

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
});
