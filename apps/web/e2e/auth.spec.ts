import { expect } from '@playwright/test';
import { newTestAccount, registerThroughUi, test } from './support.ts';

test.describe('registration', () => {
  test('a new account lands on /accessibility-settings', async ({ page }) => {
    const account = await registerThroughUi(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Accessibility Settings' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Go to ${account.username}'s profile` })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBe(
      JSON.stringify({ username: account.username }),
    );
  });

  test('a 5-character password is refused with the minimum-length message', async ({ page }) => {
    const account = newTestAccount();
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: 'Create Your Account' })).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('12345');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Password should be at least 6 characters/);
    await expect(page.getByLabel('Password')).toHaveAccessibleDescription(
      'At least 6 characters Error: Password should be at least 6 characters',
    );
    await expect(page.getByLabel('Password')).toBeFocused();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('the username rule and the password minimum show as hints before any submit; errors sit beside their fields', async ({
    page,
  }) => {
    await page.goto('/register');
    const email = page.getByLabel('Email');
    const username = page.getByLabel('Username');
    const password = page.getByLabel('Password');
    await expect(page.getByText('3-30 characters: letters, digits, dot, dash or underscore')).toBeVisible();
    await expect(page.getByText('At least 6 characters')).toBeVisible();
    await expect(username).toHaveAccessibleDescription('3-30 characters: letters, digits, dot, dash or underscore');
    await expect(password).toHaveAccessibleDescription('At least 6 characters');
    await expect(page.getByRole('alert')).toHaveCount(0);

    await email.fill('not an email');
    await username.fill('no spaces allowed');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText([
      /Email must be a valid email address/,
      /Username must be 3-30 characters: letters, digits, dot, dash or underscore/,
      /Password cannot be empty/,
    ]);
    await expect(email).toHaveAccessibleDescription('Error: Email must be a valid email address');
    await expect(username).toHaveAccessibleDescription(
      '3-30 characters: letters, digits, dot, dash or underscore Error: Username must be 3-30 characters: letters, digits, dot, dash or underscore',
    );
    await expect(password).toHaveAccessibleDescription('At least 6 characters Error: Password cannot be empty');
    await expect(email).toBeFocused();
    // Each error is in its own field, under the control and before the next field's label.
    for (const [control, next] of [
      [email, 'Username'],
      [username, 'Password'],
    ] as const) {
      const field = page.locator('.field').filter({ has: control });
      await expect(field.getByRole('alert')).toHaveCount(1);
      await expect(field.getByText(next, { exact: true })).toHaveCount(0);
    }
    await page.screenshot({ path: '/tmp/shots-22/register-errors.png' });
  });

  test('a username already in use is refused with the server message', async ({ page, browser }) => {
    const taken = await registerThroughUi(page);
    const other = await browser.newPage();
    await other.goto('/register');
    await other.getByLabel('Email').fill(`other-${taken.email}`);
    await other.getByLabel('Username').fill(taken.username);
    await other.getByLabel('Password').fill(taken.password);
    await other.getByRole('button', { name: 'Sign Up' }).click();
    await expect(other.getByRole('alert')).toHaveText(/Username already in use/);
    await expect(other.getByLabel('Username')).toHaveAccessibleDescription(/Error: Username already in use$/);
    await other.close();
  });

  test('a rate-limited registration shows the server text, and a server fault the generic message', async ({
    page,
  }) => {
    const account = newTestAccount();
    const replies = [
      { status: 429, body: { error: 'Too many requests, please try again later' } },
      { status: 500, body: { error: 'Internal server error' } },
    ];
    await page.route('**/api/account/addAccount', (route) => {
      const reply = replies.shift() ?? { status: 500, body: {} };
      return route.fulfill({ status: reply.status, json: reply.body });
    });
    await page.goto('/register');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Too many requests, please try again later/);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Failed to register account\. Please try again\./);
    await expect(page).toHaveURL(/\/register$/);
  });

  test('the Show/Hide toggle reveals the password', async ({ page }) => {
    await page.goto('/register');
    const password = page.getByLabel('Password');
    await password.fill('secret-value');
    await expect(password).toHaveAttribute('type', 'password');
    const toggle = page.getByRole('button', { name: 'Show' });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(page.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-pressed', 'true');
  });
});

test.describe('signing in and out', () => {
  test('sign out from /profile, then sign in, lands on /home', async ({ page }) => {
    const account = await registerThroughUi(page);
    await page.getByRole('button', { name: `Go to ${account.username}'s profile` }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText(account.email)).toBeVisible();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Questions' })).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

    await page.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All Questions' })).toBeVisible();
  });

  test('a wrong password shows the invalid-login message', async ({ page, browser }) => {
    const account = await registerThroughUi(page);
    const other = await browser.newPage();
    await other.goto('/login');
    await other.getByLabel('Username').fill(account.username);
    await other.getByLabel('Password').fill('not-the-password');
    await other.getByRole('button', { name: 'Sign In' }).click();
    await expect(other.getByRole('alert')).toHaveText(/Invalid username or password/);
    await expect(other).toHaveURL(/\/login$/);
    await other.close();
  });

  test('sign in returns to the page named by redirectTo, and ignores other sites', async ({ page, browser }) => {
    // Fifteen sign-ins, each a password hash at production cost: 1.2-2.3 s apiece on a busy
    // 2-core machine, more than the default minute together.
    test.setTimeout(150_000);
    const account = await registerThroughUi(page);
    const other = await browser.newPage();
    // As they would appear in a link's query string: raw, and percent-encoded once or twice.
    for (const [query, expected] of [
      ['%2Ftags', /\/tags$/],
      ['/tags', /\/tags$/],
      ['//evil.example', /\/home$/],
      ['%2F%2Fevil.example', /\/home$/],
      ['%252F%252Fevil.example', /\/home$/],
      ['/%2F%2Fevil.example', /\/home$/],
      ['/%252F%252Fevil.example', /\/home$/],
      ['https://evil.example', /\/home$/],
      ['https%3A%2F%2Fevil.example', /\/home$/],
      ['javascript:alert(1)', /\/home$/],
      ['/\\evil.example', /\/home$/],
      ['%2F%5Cevil.example', /\/home$/],
      ['/%5Cevil.example', /\/home$/],
      ['%2F%09%2Fevil.example', /\/home$/],
      ['//example.com/x', /\/home$/],
    ] as const) {
      await other.goto(`/login?redirectTo=${query}`);
      await other.getByLabel('Username').fill(account.username);
      await other.getByLabel('Password').fill(account.password);
      await other.getByRole('button', { name: 'Sign In' }).click();
      await expect(other, `redirectTo=${query}`).toHaveURL(expected);
      expect(new URL(other.url()).origin).toBe(new URL(page.url()).origin);
      await other.context().clearCookies();
    }
    await other.close();
  });

  test('a deep link survives sign-in: / keeps the wanted page and Sign In goes there', async ({ page, browser }) => {
    const account = await registerThroughUi(page);
    const asked = await page.request.post('/api/addQuestion', {
      data: { title: 'Where do porpoises go at night?', text: 'Deep link.', tags: [{ name: 'deeplink' }] },
    });
    expect(asked.status(), await asked.text()).toBe(200);
    const { _id: qid } = (await asked.json()) as { _id: string };

    const visitor = await (await browser.newContext()).newPage();
    await visitor.goto(`/question/${qid}`);
    await expect(visitor).toHaveURL(new RegExp(`/\\?redirectTo=%2Fquestion%2F${qid}$`));
    await expect(visitor.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
    const signIn = visitor.getByRole('link', { name: 'Sign In' });
    await expect(signIn).toHaveAttribute('href', `/login?redirectTo=%2Fquestion%2F${qid}`);
    await signIn.click();
    await expect(visitor).toHaveURL(new RegExp(`/login\\?redirectTo=%2Fquestion%2F${qid}$`));
    await visitor.getByLabel('Username').fill(account.username);
    await visitor.getByLabel('Password').fill(account.password);
    await visitor.getByRole('button', { name: 'Sign In' }).click();
    await expect(visitor).toHaveURL(new RegExp(`/question/${qid}$`));
    await expect(visitor.getByRole('heading', { level: 1, name: 'Where do porpoises go at night?' })).toBeVisible();

    // A query string comes along; a hostile value on / never reaches the Sign In link.
    await visitor.context().clearCookies();
    await visitor.goto('/home?order=active&tag=deeplink');
    await expect(visitor).toHaveURL(/\/\?redirectTo=%2Fhome%3Forder%3Dactive%26tag%3Ddeeplink$/);
    for (const hostile of ['//evil.example', '%2F%2Fevil.example', 'https://evil.example', '/\\evil.example']) {
      await visitor.goto(`/?redirectTo=${hostile}`);
      await expect(visitor.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    }
    await visitor.close();
  });

  test('a signed-in route redirects to / when signed out', async ({ page }) => {
    await page.goto('/home');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to PorpChat!' })).toBeVisible();
  });
});
