import { expect, test } from '@playwright/test';
import type { AccessibilitySettings } from '@porpoise/core';
import { expectNoSeriousAxeViolations, overrideAccessibilitySettings, registerThroughUi } from './support';

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

  test('on /register with an error shown', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // Each empty field's error beside it.
    await expect(page.getByRole('alert')).toHaveCount(3);
    await expectNoSeriousAxeViolations(page);
  });

  test('on /home', async ({ page }) => {
    await registerThroughUi(page);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  test('on /home at phone width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await registerThroughUi(page);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });

  const themes: AccessibilitySettings[] = [
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
