import { expect, type Browser, type Page } from '@playwright/test';
import { gotoWhenSocketOpen, member, test, type TestAccount } from './support.ts';

/** A member's page in its own browser context (support.ts's member), failing the test on any CSP violation. */
async function signedInPage(
  browser: Browser,
  baseURL: string | undefined,
  prefix: string,
): Promise<{ page: Page; account: TestAccount }> {
  const signedIn = await member(browser, baseURL, prefix);
  failOnCspViolation(signedIn.page);
  return signedIn;
}

const cspViolations: string[] = [];
function failOnCspViolation(page: Page) {
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      cspViolations.push(message.text());
    }
  });
}

/** Two moments a route handler and a test wait for: a request arrived, and its answer may go. */
function gate() {
  const opened = { arrived: () => {}, released: () => {} };
  const arrived = new Promise<void>((resolve) => (opened.arrived = resolve));
  const released = new Promise<void>((resolve) => (opened.released = resolve));
  return { arrived, released, open: (moment: 'arrived' | 'released') => opened[moment]() };
}

const row = (page: Page, name: string) => page.getByRole('link', { name: new RegExp(`^(Unread: )?${name}\\b`) });

test.afterEach(() => {
  expect(cspViolations).toEqual([]);
});

test.describe('direct threads', () => {
  test('starting a thread validates the recipient and lists the new thread', async ({ browser, baseURL }) => {
    const { page } = await signedInPage(browser, baseURL, 'ann');
    const { account: other } = await signedInPage(browser, baseURL, 'ben');

    await page.goto('/threads');
    await expect(page.getByRole('heading', { level: 1, name: 'Threads' })).toBeVisible();
    await expect(page.getByText('No threads yet.')).toBeVisible();
    await page.getByRole('link', { name: 'Start a Thread' }).click();
    await expect(page).toHaveURL(/\/new\/thread$/);
    await expect(page.getByText('Must be valid username')).toBeVisible();

    await page.getByRole('button', { name: 'Create Thread' }).click();
    await expect(page.getByRole('alert')).toHaveText(/Recipient cannot be empty/);
    await expect(page.getByLabel('Thread Recipient')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Thread Recipient')).toHaveAccessibleDescription(
      'Must be valid username Error: Recipient cannot be empty',
    );

    await page.getByLabel('Thread Recipient').fill('nobody_by_that_name');
    await page.getByRole('button', { name: 'Create Thread' }).click();
    await expect(page.getByRole('alert')).toHaveText(/User does not exist or thread already exists/);
    // It is about the recipient, so it sits beside that field.
    await expect(page.getByLabel('Thread Recipient')).toHaveAccessibleDescription(
      'Must be valid username Error: User does not exist or thread already exists',
    );

    await page.getByLabel('Thread Recipient').fill(other.username);
    await page.getByRole('button', { name: 'Create Thread' }).click();
    await expect(page).toHaveURL(/\/threads$/);
    await expect(row(page, other.username)).toContainText('Nothing yet. . .');

    // The same pair cannot have a second thread.
    await page.goto('/new/thread');
    await page.getByLabel('Thread Recipient').fill(other.username);
    await page.getByRole('button', { name: 'Create Thread' }).click();
    await expect(page.getByRole('alert')).toHaveText(/User does not exist or thread already exists/);
  });

  test('a message shows bold (unread) to the other side until opened, and arrives live in an open thread', async ({
    browser,
    baseURL,
  }) => {
    const a = await signedInPage(browser, baseURL, 'amy');
    const b = await signedInPage(browser, baseURL, 'bob');

    await a.page.goto('/new/thread');
    await a.page.getByLabel('Thread Recipient').fill(b.account.username);
    await a.page.getByRole('button', { name: 'Create Thread' }).click();
    await expect(a.page).toHaveURL(/\/threads$/);

    // Bob watches his list while Amy writes.
    await gotoWhenSocketOpen(b.page, '/threads');
    await expect(row(b.page, a.account.username)).toContainText('Nothing yet. . .');

    await row(a.page, b.account.username).click();
    await expect(a.page.getByRole('heading', { level: 1, name: `Chatting with ${b.account.username}` })).toBeVisible();
    await expect(a.page.getByText('No messages yet.')).toBeVisible();
    const box = a.page.getByLabel('Message', { exact: true });
    await expect(box).toHaveAttribute('placeholder', 'Say something nice!');

    // Blank text is not sent.
    await box.fill('   ');
    await a.page.getByRole('button', { name: 'Send Message!' }).click();
    await expect(a.page.getByText('No messages yet.')).toBeVisible();

    await box.fill('Hello [docs](https://example.com/docs) there');
    await a.page.getByRole('button', { name: 'Send Message!' }).click();
    const log = a.page.getByRole('log');
    await expect(log).toContainText('Hello docs (opens in a new tab) there');
    await expect(log.getByRole('link', { name: /docs/ })).toHaveAttribute('href', 'https://example.com/docs');
    await expect(box).toHaveValue('');

    // Live on Bob's list: bold, marked unread, with the snippet and its time.
    const bobsRow = row(b.page, a.account.username);
    await expect(bobsRow).toHaveAccessibleName(new RegExp(`^Unread: ${a.account.username}`));
    // The row's snippet is the message as read: its link's text, without the Markdown around it.
    await expect(bobsRow).toContainText('Hello docs there');
    await expect(bobsRow).toContainText(/seconds? ago/);
    await expect(bobsRow.locator('.thread-row__who')).toHaveCSS('font-weight', '700');
    await b.page.screenshot({ path: '/tmp/shots-c/e2e-threads-unread.png' });

    // Opening it marks it read: back on the list it is no longer bold.
    await bobsRow.click();
    await expect(b.page.getByRole('heading', { level: 1, name: `Chatting with ${a.account.username}` })).toBeVisible();
    await expect(b.page.getByRole('log')).toContainText('Hello docs');
    await b.page.getByRole('link', { name: 'Threads', exact: true }).click();
    await expect(row(b.page, a.account.username)).toHaveAccessibleName(new RegExp(`^${a.account.username}`));
    await expect(row(b.page, a.account.username).locator('.thread-row__who')).toHaveCSS('font-weight', '600');

    // Both have the thread open: a message arrives live and is read at once.
    await gotoWhenSocketOpen(b.page, '/threads');
    await row(b.page, a.account.username).click();
    await expect(b.page.getByRole('log')).toContainText('Hello docs');
    const readCall = b.page.waitForRequest((request) => request.url().endsWith('/api/message/readMessage'));
    await box.fill('Second line\nwith a newline');
    await box.press('Enter');
    await expect(b.page.getByRole('log')).toContainText('with a newline');
    await readCall;
    await expect(b.page.getByRole('log').getByRole('listitem')).toHaveCount(2);

    // Shift+Enter adds a line instead of sending.
    await box.fill('first');
    await box.press('Shift+Enter');
    await box.pressSequentially('second');
    await expect(box).toHaveValue('first\nsecond');
    await expect(a.page.getByRole('log').getByRole('listitem')).toHaveCount(2);

    await b.page.getByRole('link', { name: 'Threads', exact: true }).click();
    await expect(row(b.page, a.account.username)).toHaveAccessibleName(new RegExp(`^${a.account.username}`));
    await expect(row(b.page, a.account.username)).toContainText('Second line');

    // Amy, now on her list, gets Bob's reply live as unread (she no longer has the thread open).
    await gotoWhenSocketOpen(a.page, '/threads');
    await expect(row(a.page, b.account.username)).toHaveAccessibleName(new RegExp(`^${b.account.username}`));
    await row(b.page, a.account.username).click();
    await b.page.getByLabel('Message', { exact: true }).fill('Hi Amy!');
    await b.page.getByRole('button', { name: 'Send Message!' }).click();
    await expect(b.page.getByRole('log')).toContainText('Hi Amy!');
    await expect(row(a.page, b.account.username)).toHaveAccessibleName(
      new RegExp(`^Unread: ${b.account.username} Hi Amy!`),
    );
  });

  test('text typed while a message is on its way stays when its answer comes; a failed text comes back', async ({
    browser,
    baseURL,
  }) => {
    const a = await signedInPage(browser, baseURL, 'gus');
    const b = await signedInPage(browser, baseURL, 'hal');
    const thread = await a.page.request.post('/api/thread/addThread', {
      data: { accounts: [a.account.username, b.account.username] },
    });
    expect(thread.status()).toBe(200);
    await gotoWhenSocketOpen(a.page, `/threads/${((await thread.json()) as { _id: string })._id}`);
    const box = a.page.getByLabel('Message', { exact: true });

    // Each send's answer is held until the test lets it through: the first one really goes
    // to the server, the second is answered as a server in trouble would.
    const first = gate();
    const second = gate();
    let sends = 0;
    await a.page.route('**/api/message/addMessage', async (route) => {
      sends += 1;
      if (sends === 1) {
        const response = await route.fetch();
        first.open('arrived');
        await first.released;
        return route.fulfill({ response });
      }
      second.open('arrived');
      await second.released;
      return route.fulfill({ status: 503, json: { error: 'Service temporarily unavailable' } });
    });

    // The button is busy exactly while a send is on its way: once it is not, the answer is in.
    const button = a.page.getByRole('button', { name: 'Send Message!' });
    await box.fill('sent first');
    await box.press('Enter');
    await first.arrived;
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(box).toHaveValue('');
    await box.fill('typed while it was on its way');
    first.open('released');
    await expect(button).toHaveAttribute('aria-disabled', 'false');
    await expect(a.page.getByRole('log')).toContainText('sent first');
    await expect(box).toHaveValue('typed while it was on its way');

    await box.fill('this one fails');
    await box.press('Enter');
    await second.arrived;
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(box).toHaveValue('');
    await box.fill('and this was typed after');
    second.open('released');
    await expect(button).toHaveAttribute('aria-disabled', 'false');
    await expect(a.page.getByRole('alert')).toHaveText(/Service temporarily unavailable/);
    await expect(box).toHaveValue('this one fails\nand this was typed after');
    await expect(a.page.getByRole('log').getByRole('listitem')).toHaveCount(1);
  });

  test('an unknown thread shows that no messages were found', async ({ browser, baseURL }) => {
    const { page } = await signedInPage(browser, baseURL, 'cat');
    await page.goto('/threads/999999');
    await expect(page.getByText('No messages found!')).toBeVisible();
  });

  test('the newest threads come first, and new ones arrive live', async ({ browser, baseURL }) => {
    const a = await signedInPage(browser, baseURL, 'dan');
    const b = await signedInPage(browser, baseURL, 'eve');
    const c = await signedInPage(browser, baseURL, 'fay');
    await gotoWhenSocketOpen(a.page, '/threads');
    await expect(a.page.getByText('No threads yet.')).toBeVisible();
    for (const other of [b, c]) {
      await other.page.goto('/new/thread');
      await other.page.getByLabel('Thread Recipient').fill(a.account.username);
      await other.page.getByRole('button', { name: 'Create Thread' }).click();
      await expect(other.page).toHaveURL(/\/threads$/);
    }
    const names = a.page.locator('.thread-row__who');
    await expect(names).toHaveText([c.account.username, b.account.username]);
  });
});
