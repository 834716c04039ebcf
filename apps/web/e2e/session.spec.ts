import { expect } from '@playwright/test';
import { newTestAccount, overrideAccessibilitySettings, registerThroughUi, test } from './support.ts';

test.describe('session side effects', () => {
  test("the body's classes follow the account's accessibility settings and go on sign-out", async ({ page }) => {
    const account = await registerThroughUi(page);
    await expect(page.locator('body')).toHaveClass('');

    await overrideAccessibilitySettings(page, { lowVision: true, colorBlindness: 'redgreen' });
    await page.goto('/home');
    await expect(page.locator('body')).toHaveClass(/\bredgreen\b/);
    await expect(page.locator('body')).toHaveClass(/\blow-vision\b/);

    await overrideAccessibilitySettings(page, { lowVision: false, colorBlindness: 'grayscale' });
    await page.goto('/home');
    await expect(page.locator('body')).toHaveClass('grayscale');

    await page.getByRole('button', { name: `Go to ${account.username}'s profile` }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('body')).toHaveClass('');
  });

  test('one socket is open at a time, reopened after sign-in and after sign-out', async ({ page }) => {
    let opened = 0;
    let open = 0;
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/socket.io/')) return;
      opened += 1;
      open += 1;
      socket.on('close', () => {
        open -= 1;
      });
    });
    const account = newTestAccount();
    await page.goto('/register');
    await expect.poll(() => opened).toBe(1);

    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/accessibility-settings$/);
    await expect.poll(() => opened).toBe(2);
    await expect.poll(() => open).toBe(1);

    await page.getByRole('button', { name: `Go to ${account.username}'s profile` }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(() => opened).toBe(3);
    await expect.poll(() => open).toBe(1);
  });
});
