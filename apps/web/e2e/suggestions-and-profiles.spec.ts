import { mkdirSync } from 'node:fs';
import { expect, request, type Page } from '@playwright/test';
import {
  askViaApi,
  expectNoSeriousAxeViolations,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
  type Palette,
} from './support.ts';
import type { Account, Thread } from '@porpoise/core';

// Issue 32, items 4 and 5 (docs/product.md section 5, "A member's first week"): suggestions as one
// types, and profiles that connect people.
const SHOTS = '/tmp/shots-h5';
mkdirSync(SHOTS, { recursive: true });

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;

const THEMES: Palette[] = [
  { lowVision: false, colorBlindness: 'none' },
  { lowVision: true, colorBlindness: 'none' },
  { lowVision: false, colorBlindness: 'redgreen' },
  { lowVision: false, colorBlindness: 'blueyellow' },
  { lowVision: true, colorBlindness: 'grayscale' },
];

/** Another member, signed in through an API context of their own. */
async function otherMember(baseURL: string | undefined, prefix: string) {
  const context = await request.newContext({ baseURL });
  return { context, ...(await registerViaApi(context, prefix)) };
}

/** Types into a field key by key, as a person does (each key an input event). */
async function typeInto(page: Page, name: string, text: string) {
  const field = page.getByRole('combobox', { name });
  await field.focus();
  await field.pressSequentially(text);
  return field;
}

/** In every theme, the page as it is now has no serious or critical axe violation. */
async function axeInEveryTheme(page: Page, reopen: () => Promise<void>) {
  for (const settings of THEMES) {
    await overrideAccessibilitySettings(page, settings);
    await reopen();
    const body = page.locator('body');
    if (settings.colorBlindness !== 'none') await expect(body).toHaveClass(new RegExp(settings.colorBlindness));
    if (settings.lowVision) await expect(body).toHaveClass(/low-vision/);
    await expectNoSeriousAxeViolations(page);
    await page.unroute('**/api/account/me');
  }
}

// axe-core goes in as a script tag, which the pages' CSP would refuse.
test.use({ bypassCSP: true });

test.describe('tag suggestions in the ask and edit forms', () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px: options name each tag and its count; arrows and Enter, Escape, a click`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      const me = await registerViaApi(page.request, 'tags');
      const s = stamp();
      await askViaApi(page, me.username, 'First kelp question', { tags: [`${s}kelp`] });
      await askViaApi(page, me.username, 'Second kelp question', { tags: [`${s}kelp`] });
      const mine = await askViaApi(page, me.username, 'A kelpie question', { tags: [`${s}kelpie`] });
      await askViaApi(page, me.username, 'A reef question', { tags: [`${s}reef`] });

      await page.goto('/new/question');
      const tags = await typeInto(page, 'Tags', `React ${s.toUpperCase()}KE`);
      const list = page.getByRole('listbox', { name: 'Suggestions' });
      await expect(list).toBeVisible();
      await expect(tags).toHaveAttribute('aria-expanded', 'true');
      await expect(tags).toHaveAttribute('aria-controls', (await list.getAttribute('id')) ?? '');
      const options = list.getByRole('option');
      await expect(options).toHaveText([`${s}kelp2 questions`, `${s}kelpie1 question`]);

      // ArrowDown reaches the first option, again the second; Enter completes the word being typed.
      await tags.press('ArrowDown');
      await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
      await list.evaluate((element) => element.scrollIntoView({ block: 'end' }));
      await page.screenshot({ path: `${SHOTS}/tags-open-${viewport.width}.png` });
      await expect(tags).toHaveAttribute('aria-activedescendant', (await options.nth(0).getAttribute('id')) ?? '');
      await tags.press('ArrowDown');
      await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
      await expect(tags).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id')) ?? '');
      await tags.press('Enter');
      await expect(tags).toHaveValue(`React ${s}kelpie `);
      await expect(list).toBeHidden();
      await expect(tags).toHaveAttribute('aria-expanded', 'false');
      await expect(page).toHaveURL(/\/new\/question$/);

      // Escape closes the list and leaves the text as typed.
      await tags.pressSequentially(`${s}r`);
      await expect(options).toHaveText([`${s}reef1 question`]);
      await tags.press('Escape');
      await expect(list).toBeHidden();
      await expect(tags).toHaveValue(`React ${s}kelpie ${s}r`);

      // A word that is no tag's start gets no list; a click picks too.
      await tags.pressSequentially('zz');
      await expect(list).toBeHidden();
      for (let i = 0; i < 2; i += 1) await tags.press('Backspace');
      await expect(options).toHaveText([`${s}reef1 question`]);
      await axeInEveryTheme(page, async () => {
        await page.reload();
        await typeInto(page, 'Tags', `${s}k`);
        await expect(options).toHaveCount(2);
        await tags.press('ArrowDown');
      });
      await page.setViewportSize(viewport);
      await options.first().click();
      await expect(tags).toHaveValue(`${s}kelp `);
      await expect(tags).toBeFocused();

      // The edit form suggests the same way.
      await page.goto(`/edit/question/${mine._id}`);
      const editTags = page.getByRole('combobox', { name: 'Tags' });
      await expect(editTags).toHaveValue(`${s}kelpie`);
      await editTags.press('End');
      await editTags.pressSequentially(` ${s}re`);
      await expect(options).toHaveText([`${s}reef1 question`]);
      await editTags.press('ArrowDown');
      await editTags.press('Enter');
      await expect(editTags).toHaveValue(`${s}kelpie ${s}reef `);
      await page.screenshot({ path: `${SHOTS}/tags-edit-${viewport.width}.png` });
    });
  }
});

test.describe('Thread Recipient suggestions', () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px: usernames as one types; ArrowDown and Enter pick one, and the thread starts`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      const me = await registerViaApi(page.request, 'rcpt');
      const s = stamp().slice(-6);
      const bob = await otherMember(baseURL, `Ann${s}`);
      const ben = await otherMember(baseURL, `ann${s}b`);

      await page.goto('/new/thread');
      const recipient = await typeInto(page, 'Thread Recipient', `ANN${s}`);
      const list = page.getByRole('listbox', { name: 'Suggestions' });
      const options = list.getByRole('option');
      await expect(options).toHaveText([bob.username, ben.username]);
      await page.screenshot({ path: `${SHOTS}/recipient-open-${viewport.width}.png` });
      await axeInEveryTheme(page, async () => {
        await page.reload();
        await typeInto(page, 'Thread Recipient', `ann${s}`);
        await expect(options).toHaveCount(2);
        await page.getByRole('combobox', { name: 'Thread Recipient' }).press('ArrowDown');
      });
      await page.setViewportSize(viewport);
      await page.reload();
      await typeInto(page, 'Thread Recipient', `ann${s}`);
      await expect(options).toHaveCount(2);
      await recipient.press('ArrowDown');
      await recipient.press('ArrowDown');
      await recipient.press('Enter');
      await expect(recipient).toHaveValue(ben.username);
      await expect(list).toBeHidden();
      await page.getByRole('button', { name: 'Create Thread' }).click();
      await expect(page).toHaveURL(/\/threads$/);
      await expect(page.getByText(ben.username)).toBeVisible();
      expect(me.username).not.toBe(ben.username);
      await bob.context.dispose();
      await ben.context.dispose();
    });
  }
});

test.describe('profiles connect people', () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px: Member since, counts, and Message opening or starting the thread`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize(viewport);
      const me = await registerViaApi(page.request, 'prof');
      const kim = await otherMember(baseURL, 'kim');
      const lee = await otherMember(baseURL, 'lee');
      const s = stamp();
      const kept = await askViaApi(kim.context, kim.username, `About ${s}a`, {
        text: 'Details.',
        tags: [`${s}a`],
      });
      const removed = await askViaApi(kim.context, kim.username, `About ${s}b`, {
        text: 'Details.',
        tags: [`${s}b`],
      });
      expect((await kim.context.delete(`/api/question/${removed._id}`)).status()).toBe(200);
      const answered = await kim.context.post('/api/answer/addAnswer', {
        data: { qid: kept._id, ans: { text: 'My own answer.', ansBy: kim.username, comments: [] } },
      });
      expect(answered.status()).toBe(200);
      // Lee already talks with me: Message opens that thread.
      const started = await lee.context.post('/api/thread/addThread', {
        data: { messages: [], accounts: [lee.username, me.username], threadUpdatedDateTime: '' },
      });
      const leeThread = ((await started.json()) as Thread)._id;

      const since = (account: Account) =>
        page.evaluate((at) => {
          const months = [
            'January',
            'February',
            'March',
            'April',
            'May',
            'June',
            'July',
            'August',
            'September',
            'October',
            'November',
            'December',
          ];
          const date = new Date(at);
          return `Member since ${months[date.getMonth()]} ${date.getFullYear()}`;
        }, account.createdAt);

      await page.goto(`/profile/${kim.username}`);
      await expect(page.getByRole('heading', { level: 2, name: kim.username })).toBeVisible();
      await expect(page.getByText(await since(kim.account))).toBeVisible();
      const counts = page.locator('.profile-card__counts');
      await expect(counts.getByRole('definition')).toHaveText(['1', '1']);
      await expect(counts.getByRole('term')).toHaveText(['Questions', 'Answers']);
      await page.screenshot({ path: `${SHOTS}/profile-other-${viewport.width}.png`, fullPage: true });
      await axeInEveryTheme(page, async () => {
        await page.reload();
        await expect(page.getByRole('button', { name: 'Message' })).toBeVisible();
      });
      await page.setViewportSize(viewport);
      await page.reload();

      // No thread with Kim yet: Message starts one and opens it.
      const addThread = page.waitForResponse((response) => response.url().endsWith('/api/thread/addThread'));
      await page.getByRole('button', { name: 'Message' }).click();
      expect((await addThread).status()).toBe(200);
      await expect(page).toHaveURL(/\/threads\/\d+$/);
      await expect(page.getByText(`Chatting with ${kim.username}`)).toBeVisible();
      const kimThread = page.url().split('/').pop();

      // Now there is one: Message opens the same thread, starting none.
      let added = 0;
      page.on('request', (sent) => {
        if (sent.url().endsWith('/api/thread/addThread')) added += 1;
      });
      await page.goto(`/profile/${kim.username}`);
      await page.getByRole('button', { name: 'Message' }).click();
      await expect(page).toHaveURL(new RegExp(`/threads/${kimThread}$`));
      await expect(page.getByText(`Chatting with ${kim.username}`)).toBeVisible();

      await page.goto(`/profile/${lee.username}`);
      await page.getByRole('button', { name: 'Message' }).click();
      await expect(page).toHaveURL(new RegExp(`/threads/${leeThread}$`));
      await expect(page.getByText(`Chatting with ${lee.username}`)).toBeVisible();
      expect(added).toBe(0);

      // One's own profile: Member since and counts, no Message button.
      await page.goto('/profile');
      await expect(page.getByText(await since(me.account))).toBeVisible();
      await expect(page.locator('.profile-card__counts').getByRole('definition')).toHaveText(['0', '0']);
      await expect(page.getByRole('button', { name: 'Message' })).toHaveCount(0);
      await page.goto(`/profile/${me.username}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Message' })).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/profile-own-${viewport.width}.png`, fullPage: true });
      await kim.context.dispose();
      await lee.context.dispose();
    });
  }
});
