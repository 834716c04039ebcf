import { expect } from '@playwright/test';
import { gotoWhenSocketOpen, member, test, uniqueUsername } from './support.ts';

test.describe('forums', () => {
  test('creating a forum validates it, shows it live to others, and its card opens a discussion', async ({
    browser,
    baseURL,
  }) => {
    const a = await member(browser, baseURL, 'gia');
    const b = await member(browser, baseURL, 'hal');
    const forumName = `Tide pools ${uniqueUsername('f')}`;

    await gotoWhenSocketOpen(b.page, '/forums');
    await expect(b.page.getByRole('heading', { level: 1, name: 'Forums' })).toBeVisible();

    await a.page.goto('/forums');
    await a.page.getByRole('link', { name: 'Start a Forum' }).click();
    await expect(a.page).toHaveURL(/\/new\/forum$/);
    const create = a.page.getByRole('button', { name: 'Create Forum' });
    await create.click();
    // Each error sits right under its own field and describes it; the first field takes focus.
    const nameField = a.page.getByLabel('Forum Name');
    const descriptionField = a.page.getByLabel('Forum Description');
    await expect(a.page.getByRole('alert')).toHaveText([/Name cannot be empty/, /Description cannot be empty/]);
    await expect(nameField).toHaveAttribute('aria-invalid', 'true');
    await expect(nameField).toHaveAccessibleDescription(/Name cannot be empty$/);
    await expect(nameField).toBeFocused();
    await expect(descriptionField).toHaveAccessibleDescription(/^Error: Description cannot be empty$/);
    const nameError = a.page.getByRole('alert').filter({ hasText: 'Name cannot be empty' }).first();
    const box = async (locator: typeof nameField) =>
      (await locator.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const [nameBox, nameErrorBox, descriptionLabelBox] = [
      await box(nameField),
      await box(nameError),
      await box(a.page.getByText('Forum Description', { exact: true })),
    ];
    expect(nameErrorBox.y).toBeGreaterThanOrEqual(nameBox.y + nameBox.height);
    expect(nameErrorBox.y + nameErrorBox.height).toBeLessThanOrEqual(descriptionLabelBox.y);
    await a.page.screenshot({ path: '/tmp/shots-22/new-forum-errors.png' });

    await nameField.fill(forumName);
    await create.click();
    await expect(a.page.getByRole('alert')).toHaveText(/Description cannot be empty/);
    await expect(nameField).not.toHaveAttribute('aria-invalid');
    await expect(descriptionField).toHaveAttribute('aria-invalid', 'true');
    await expect(descriptionField).toBeFocused();
    await a.page.getByLabel('Forum Description').fill('Everything about rock pools\nand what lives there.');
    await create.click();
    await expect(a.page).toHaveURL(/\/forums$/);
    await expect(a.page.getByRole('link', { name: forumName })).toBeVisible();

    // Bob's open list gets the forum live.
    await expect(b.page.getByRole('link', { name: forumName })).toBeVisible();
    await expect(b.page.getByText('Everything about rock pools')).toBeVisible();

    // A duplicate name shows the server's reason.
    await a.page.goto('/new/forum');
    await a.page.getByLabel('Forum Name').fill(forumName.toUpperCase());
    await a.page.getByLabel('Forum Description').fill('Again');
    await create.click();
    await expect(a.page.getByRole('alert')).toHaveText(/Forum name already exists/);
    await expect(a.page.getByLabel('Forum Name')).toHaveAccessibleDescription(/Forum name already exists$/);

    // The card opens the forum's discussion; a post there reaches another reader live.
    await a.page.goto('/forums');
    await a.page.getByRole('link', { name: forumName }).click();
    await expect(a.page).toHaveURL(/\/threads\/\w+$/);
    await expect(a.page.getByRole('heading', { level: 1, name: forumName })).toBeVisible();
    await expect(a.page.getByText('No messages yet.')).toBeVisible();
    const threadUrl = a.page.url();

    await gotoWhenSocketOpen(b.page, threadUrl);
    await expect(b.page.getByRole('heading', { level: 1, name: forumName })).toBeVisible();

    await a.page.getByLabel('Message', { exact: true }).fill('Who has seen an anemone?');
    await a.page.getByRole('button', { name: 'Send Message!' }).click();
    await expect(a.page.getByRole('log')).toContainText('Who has seen an anemone?');
    await expect(b.page.getByRole('log')).toContainText('Who has seen an anemone?');
    await expect(b.page.getByRole('log')).toContainText(a.account.username);
  });

  test('the list shows a page of forums and loads older ones on request', async ({ browser, baseURL }) => {
    const { page } = await member(browser, baseURL, 'ivy');
    const prefix = `Shoal ${uniqueUsername('p')}`;
    // One more than a page, so the first of them is only on the second page.
    for (let i = 0; i <= 50; i++) {
      const response = await page.request.post('/api/forum/addForum', {
        data: { name: `${prefix} ${i}`, description: 'Paging' },
      });
      expect(response.status()).toBe(200);
    }
    await page.goto('/forums');
    const forums = page.getByRole('list', { name: 'Forums' });
    await expect(forums.getByRole('link', { name: `${prefix} 50`, exact: true })).toBeVisible();
    await expect(forums.getByRole('listitem')).toHaveCount(50);
    await expect(forums.getByRole('link', { name: `${prefix} 0`, exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Load more forums' }).click();
    await expect(forums.getByRole('link', { name: `${prefix} 0`, exact: true })).toBeVisible();
    await expect(forums.getByRole('link', { name: `${prefix} 1`, exact: true })).toHaveCount(1);
  });

  test("a forum's discussion is in the Forums section of the menu; a direct thread in Threads", async ({
    browser,
    baseURL,
  }) => {
    const a = await member(browser, baseURL, 'jon');
    const b = await member(browser, baseURL, 'kay');
    const forumName = `Kelp ${uniqueUsername('f')}`;
    const created = await a.page.request.post('/api/forum/addForum', {
      data: { name: forumName, description: 'Forests under the sea' },
    });
    expect(created.status()).toBe(200);
    const direct = await a.page.request.post('/api/thread/addThread', {
      data: { messages: [], accounts: [a.account.username, b.account.username], threadUpdatedDateTime: new Date() },
    });
    expect(direct.status()).toBe(200);
    const { _id: directId } = (await direct.json()) as { _id: string };

    const menu = a.page.getByRole('navigation', { name: 'Main' });
    const expectCurrent = async (current: string, other: string) => {
      await expect(menu.getByRole('link', { name: current })).toHaveAttribute('aria-current', 'page');
      await expect(menu.getByRole('link', { name: other })).not.toHaveAttribute('aria-current');
    };

    // From the forum card, and again by address (a reload or a shared link).
    await a.page.goto('/forums');
    await a.page.getByRole('link', { name: forumName }).click();
    await expect(a.page.getByRole('heading', { level: 1, name: forumName })).toBeVisible();
    await expect(a.page.getByRole('link', { name: 'All forums' })).toBeVisible();
    await expectCurrent('Forums', 'Threads');
    await a.page.reload();
    await expect(a.page.getByRole('heading', { level: 1, name: forumName })).toBeVisible();
    await expectCurrent('Forums', 'Threads');

    await a.page.goto(`/threads/${directId}`);
    await expect(a.page.getByRole('heading', { level: 1, name: `Chatting with ${b.account.username}` })).toBeVisible();
    await expectCurrent('Threads', 'Forums');
  });
});
