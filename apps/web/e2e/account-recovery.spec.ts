/**
 * Accounts people can recover (docs/product.md section 10): the reset mail travels over SMTP to
 * the run's mail sink; its link opens in Chromium, sets a new password, which signs in,
 * and the sessions from before get 401. Changing the email on /profile with the link
 * mailed to the new address. axe on every new screen in every theme.
 */
import { expect } from '@playwright/test';
import {
  expectNoSeriousAxeViolations,
  linkIn,
  newTestAccount,
  nextMail,
  overrideAccessibilitySettings,
  registerThroughUi,
  signInThroughUi,
  test,
} from './support.ts';
import { MESSAGES } from '@porpoise/core';

test.describe('password reset', () => {
  test('forgot password to a new password, by the mailed link; the old sessions end', async ({ browser, baseURL }) => {
    const before = await (await browser.newContext({ baseURL })).newPage();
    const account = await registerThroughUi(before, newTestAccount('reset'));
    expect((await before.request.get('/api/account/me')).status()).toBe(200);

    const page = await (await browser.newContext({ baseURL })).newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('status')).toHaveText(MESSAGES.resetLinkSent);

    const mail = await nextMail(page, account.email);
    expect(mail.subject).toBe('Reset your Porpoise password');
    expect(mail.text).not.toContain(account.password);
    await page.goto(linkIn(mail, '/reset-password'));
    await expect(page.getByRole('heading', { name: 'Choose a New Password' })).toBeVisible();
    await expect(page).toHaveURL(/\/reset-password$/);
    // The rules first: a short password leaves the link working.
    await page.getByLabel('New password').fill('abc');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByText(MESSAGES.passwordTooShort)).toBeVisible();
    await page.getByLabel('New password').fill('brand-new-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status')).toHaveText(MESSAGES.passwordChanged);

    await signInThroughUi(page, { ...account, password: 'brand-new-password' });
    await expect(page).toHaveURL(/\/home/);
    expect((await before.request.get('/api/account/me')).status()).toBe(401);

    // The link is used up.
    await page.goto(linkIn(mail, '/reset-password'));
    await page.getByLabel('New password').fill('another-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByText(MESSAGES.linkExpired)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Send a new link' })).toBeVisible();
  });

  test('an unknown email gets the same answer', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('nobody-at-all@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('status')).toHaveText(MESSAGES.resetLinkSent);
  });
});

test.describe('account settings', () => {
  test('changing the password and the email on /profile', async ({ page, browser, baseURL }) => {
    const account = await registerThroughUi(page, newTestAccount('settings'));
    // The page's socket connections: the password change replaces the session, so the page reconnects.
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto('/profile');
    await expect.poll(() => sockets.length).toBe(1);
    const settings = page.getByRole('region', { name: 'Account settings' });
    const password = settings.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current password').fill('wrong-password');
    await password.getByLabel('New password').fill('second-password');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await expect(password.getByText(MESSAGES.currentPasswordIncorrect)).toBeVisible();
    await expect(password.getByLabel('Current password')).toBeFocused();
    const session = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'porpoise_session');
    const before = await session();
    await password.getByLabel('Current password').fill(account.password);
    await password.getByRole('button', { name: 'Change Password' }).click();
    await expect(password.getByRole('status')).toContainText('Your password was changed');
    // A new session cookie; the old one no longer works, and the page's socket came back with the new one.
    expect((await session())?.value).not.toBe(before?.value);
    await expect.poll(() => sockets.length).toBe(2);
    const copied = await browser.newContext({ baseURL });
    if (before) await copied.addCookies([before]);
    expect((await copied.request.get('/api/account/me')).status()).toBe(401);
    await copied.close();
    expect((await page.request.get('/api/account/me')).status()).toBe(200);

    const email = settings.getByRole('form', { name: 'Change email' });
    const newEmail = `moved-${account.email}`;
    await email.getByLabel('New email').fill(newEmail);
    await email.getByLabel('Current password').fill('second-password');
    await email.getByRole('button', { name: 'Change Email' }).click();
    await expect(email.getByRole('status')).toHaveText(MESSAGES.confirmEmailSent);
    await expect(page.getByText(account.email, { exact: true })).toBeVisible();

    const mail = await nextMail(page, newEmail);
    // Opening the link changes nothing: only the button does.
    const confirmations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/account/confirmEmail')) confirmations.push(request.method());
    });
    await page.goto(linkIn(mail, '/confirm-email'));
    const confirm = page.getByRole('button', { name: 'Confirm Email' });
    await expect(confirm).toBeVisible();
    // The token has left the address bar.
    await expect(page).toHaveURL(/\/confirm-email$/);
    expect(confirmations).toEqual([]);
    expect(((await (await page.request.get('/api/account/me')).json()) as { email: string }).email).toBe(account.email);
    await confirm.click();
    await expect(page.getByRole('status')).toHaveText(MESSAGES.emailConfirmed);
    await expect(page.getByRole('status')).toBeFocused();
    const notice = await nextMail(page, account.email);
    expect(notice.subject).toBe('Your Porpoise email was changed');
    await page.goto('/profile');
    await expect(page.getByText(newEmail, { exact: true })).toBeVisible();
  });

  test.describe('in every theme', () => {
    test.use({ bypassCSP: true });
    for (const lowVision of [false, true]) {
      for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
        test(`the recovery screens and the settings pass axe (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({
          page,
        }) => {
          await registerThroughUi(page, newTestAccount('axe'));
          await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
          await page.goto('/profile');
          const settings = page.getByRole('region', { name: 'Account settings' });
          await settings.getByRole('button', { name: 'Change Password' }).click();
          await expect(settings.getByText(MESSAGES.passwordRequired).first()).toBeVisible();
          await expectNoSeriousAxeViolations(page);
          for (const path of ['/forgot-password', '/reset-password?token=x', '/confirm-email?token=x', '/login']) {
            await page.goto(path);
            await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
            await expectNoSeriousAxeViolations(page);
          }
        });
      }
    }
  });
});
