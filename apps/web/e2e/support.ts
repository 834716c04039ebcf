import { createRequire } from 'node:module';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import type { AxeResults } from 'axe-core';
import type { Account, AccessibilitySettings, Answer, Question } from '@porpoise/core';
import { e2ePorts, startWorkerServer } from './worker-server.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options?: { runOnly?: string[] }) => Promise<AxeResults> };
  }
}

let counter = 0;

/**
 * Every spec's `test`. Each worker has a server of its own on an empty database
 * (worker-server.ts), whose first account, registered before any test, is the admin
 * (E2E_ADMIN): `baseURL`, and so every page and request, points at it. Workers run spec
 * files side by side and never see each other's data.
 *
 * The contexts a test opens itself (browser.newContext, member(), adminPage()) close when it
 * ends, as the `page` fixture's does. Left open, their pages keep live sockets for the rest
 * of the run: past the server's 50 sockets per address, a later test's socket is refused and
 * it waits for an event that never comes.
 */
export const test = base.extend<{ closeOpenedContexts: void }, { workerServerUrl: string }>({
  workerServerUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern
    async ({}, provide, workerInfo) => {
      const server = await startWorkerServer(workerInfo.parallelIndex);
      try {
        const response = await fetch(`${server.url}/api/account/addAccount`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...E2E_ADMIN, createdAt: new Date().toISOString() }),
        });
        if (response.status !== 200)
          throw new Error(`registering the admin: ${response.status} ${await response.text()}`);
        await provide(server.url);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  baseURL: async ({ workerServerUrl }, provide) => provide(workerServerUrl),
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});

/** A username no other test (or earlier run against the same server) has used; fits the 3-30 character rule. */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  const stamp = Date.now().toString(36);
  const random = Math.random().toString(36).slice(2, 6);
  return `${prefix}_${stamp}${random}${counter}`.slice(0, 30);
}

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestAccount {
  username: string;
  email: string;
  password: string;
}

/** The installation's admin: each worker server's first account, registered before any test. */
export const E2E_ADMIN: TestAccount = {
  username: 'e2e_admin',
  email: 'e2e_admin@example.com',
  password: TEST_PASSWORD,
};

/** Signs `account` in through /login; resolves once the app has left the sign-in page. */
export async function signInThroughUi(page: Page, account: TestAccount): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export function newTestAccount(prefix?: string): TestAccount {
  const username = uniqueUsername(prefix);
  return { username, email: `${username.toLowerCase()}@example.com`, password: TEST_PASSWORD };
}

/**
 * Registers a new account through the API in `request` (a page's or a browser context's
 * request shares its cookies): the session cookie stays there, signed in.
 */
export async function registerViaApi(
  request: APIRequestContext,
  prefix?: string,
): Promise<TestAccount & { account: Account }> {
  const account = newTestAccount(prefix);
  const response = await request.post('/api/account/addAccount', {
    data: { ...account, createdAt: new Date().toISOString() },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { ...account, account: (await response.json()) as Account };
}

/**
 * Signs `account` in by cookie: an API sign-in in the browser context's request context,
 * whose cookie jar the context's pages share. For tests where signing in is not what they test.
 */
export async function signInViaApi(context: BrowserContext, account: TestAccount): Promise<void> {
  const response = await context.request.post('/api/account/login', {
    data: { username: account.username, password: account.password },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Fills and submits /register; resolves once the app has landed on /accessibility-settings. */
export async function registerThroughUi(page: Page, account: TestAccount = newTestAccount()): Promise<TestAccount> {
  await page.goto('/register');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/accessibility-settings$/);
  return account;
}

const require = createRequire(import.meta.url);
const AXE_SCRIPT = require.resolve('axe-core/axe.min.js');

/**
 * Runs axe-core on the page and fails on any violation of serious or critical impact, in both
 * colour schemes (docs/product.md section 12): as the page is, then with the body's `dark`
 * class turned the other way (the dark palettes are that class's; the app sets it only when
 * the account's settings or the system change), then as it was.
 */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  await page.addScriptTag({ path: AXE_SCRIPT });
  const dark = await page.evaluate(() => document.body.classList.contains('dark'));
  try {
    for (const scheme of [dark, !dark]) {
      await page.evaluate((on) => document.body.classList.toggle('dark', on), scheme);
      // The other scheme changes colours only: its pass checks the rules about colour.
      const results = await page.evaluate(
        (every) => window.axe.run(document, every ? {} : { runOnly: ['color-contrast', 'link-in-text-block'] }),
        scheme === dark,
      );
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        }));
      expect(serious, `axe violations on ${page.url()} (${scheme ? 'dark' : 'light'} colours)`).toEqual([]);
    }
  } finally {
    await page.evaluate((on) => document.body.classList.toggle('dark', on), dark).catch(() => undefined);
  }
}

/** A colour theme with or without low vision: the spec's two accessibility settings. */
export type Palette = Pick<AccessibilitySettings, 'lowVision' | 'colorBlindness'>;

/**
 * Serves /api/account/me with the given accessibility settings in place of the stored
 * ones (those not given as stored), so a theme is checked without a trip through the
 * settings screen. A 401 passes through.
 */
export async function overrideAccessibilitySettings(
  page: Page,
  settings: Partial<AccessibilitySettings>,
): Promise<void> {
  await page.route('**/api/account/me', async (route) => {
    const response = await route.fetch();
    if (response.status() !== 200) return route.fulfill({ response });
    const account = (await response.json()) as Account;
    return route.fulfill({
      response,
      json: { ...account, accessibilitySettings: { ...account.accessibilitySettings, ...settings } },
    });
  });
}

/** Answers a question through the API as the page's signed-in user. */
export async function answerViaApi(page: Page, username: string, qid: string, text: string): Promise<Answer> {
  const response = await page.request.post('/api/answer/addAnswer', {
    data: { qid, ans: { text, ansBy: username, ansDateTime: new Date().toISOString(), comments: [] } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Answer;
}

/**
 * Opens a page and waits until the server has acknowledged, on the page's WebSocket, the
 * questions the page shows (an ack frame, '43...'), so that their events are sure to reach it.
 */
export async function gotoWhenQuestionsWatched(page: Page, path: string): Promise<void> {
  const shown = new Promise<void>((resolve) =>
    page.once('websocket', (ws) =>
      ws.on('framereceived', (frame) => {
        if (String(frame.payload).startsWith('43')) resolve();
      }),
    ),
  );
  await page.goto(path);
  await shown;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Opens a page and resolves once the app's socket has its first frame (the connection is
 * open), so no event sent to the member's room after it is missed.
 */
export async function gotoWhenSocketOpen(page: Page, url: string): Promise<void> {
  const connected = new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      if (socket.url().includes('/socket.io/')) socket.once('framereceived', () => resolve());
    });
  });
  await page.goto(url);
  await connected;
}

/** A short string no other call gives back: for titles and tags only this test uses. */
export const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Asks a question through the API as the signed-in user of a page or request context ('general' unless tags are given). */
export async function askViaApi(
  asker: Page | APIRequestContext,
  username: string,
  title: string,
  { text = 'Details of the problem.', tags = ['general'] }: { text?: string; tags?: string[] } = {},
): Promise<Question> {
  const request = 'request' in asker ? asker.request : asker;
  const response = await request.post('/api/addQuestion', {
    data: { title, text, tags: tags.map((name) => ({ name, description: '' })), askedBy: username },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Question;
}

/**
 * A new member, registered through the API and so signed in by cookie, in a browser context
 * of their own (`options` for the context: a viewport...). The page is blank until the test opens one.
 */
export async function member(
  browser: Browser,
  baseURL: string | undefined,
  prefix: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ page: Page; account: TestAccount }> {
  const page = await (await browser.newContext({ baseURL, ...options })).newPage();
  const { username, email, password } = await registerViaApi(page.request, prefix);
  return { page, account: { username, email, password } };
}

/** The run's admin (a moderator too), signed in by cookie in a browser context of their own. */
export async function adminPage(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await signInViaApi(context, E2E_ADMIN);
  return context.newPage();
}

/** A mail as the run's mail sink (e2e/mail-sink.ts) received it over SMTP. */
export interface SunkMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The next mail the server sent to `to`, from the mail sink (which waits up to 10 s for it). */
export async function nextMail(page: Page, to: string): Promise<SunkMail> {
  const sink = `http://127.0.0.1:${e2ePorts().mailHttp}`;
  const response = await page.request.get(`${sink}/next?to=${encodeURIComponent(to)}`, { timeout: 15_000 });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as SunkMail;
}

/** The link to `path` (/reset-password, /confirm-email) in a mail, as its path and query on this server. */
export function linkIn(mail: SunkMail, path: string): string {
  const start = mail.text.indexOf(`${path}?token=`);
  expect(start, mail.text).toBeGreaterThanOrEqual(0);
  const rest = mail.text.slice(start);
  const end = rest.search(/\s/);
  return end < 0 ? rest : rest.slice(0, end);
}
