/**
 * Reputation and privileges (docs/product.md section 13): '{N} reputation' and the history on
 * /profile and /profile/:username, each row linking to its question; /help/privileges, reached
 * from the profile's reputation; the admin's 'Privileges' form on /admin/users; axe in every theme.
 */
import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import type { AccessibilitySettings, Privilege, PrivilegeKey } from '@porpoise/core';
import {
  adminPage,
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  member,
  overrideAccessibilitySettings,
  stamp,
  test,
} from './support.ts';

const SHOTS = '/tmp/shots-reputation';
mkdirSync(SHOTS, { recursive: true });

const DEFAULT_THRESHOLDS: Record<PrivilegeKey, number> = { flagToHide: 15, editAny: 2000, closeVote: 3000 };
const THRESHOLD_ERROR = 'A threshold must be a whole number from 1 to 1,000,000';

/** The profile's 'Reputation' section and its rows, newest first. */
const reputationSection = (page: Page) => page.getByRole('region', { name: 'Reputation' });
const historyRows = (page: Page) => reputationSection(page).getByRole('listitem');

/** The profile card's '{N} reputation' link to /help/privileges. */
const reputationLink = (page: Page, shown: string) =>
  page.getByRole('link', { name: new RegExp(`^${shown} reputation\\b`) });

/** One privilege's card on /help/privileges, found by its heading. */
const privilegeCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name }) });

async function upvoteQuestion(voter: Page, qid: string) {
  const response = await voter.request.post('/api/upvoteQuestion', { data: { qid } });
  expect(response.status(), await response.text()).toBe(200);
}

async function adjust(admin: Page, username: string, delta: number, reason: string) {
  const response = await admin.request.post(`/api/admin/users/${username}/reputation`, { data: { delta, reason } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { username: string; reputation: number };
}

async function thresholds(page: Page): Promise<Record<string, number>> {
  const response = await page.request.get('/api/privileges');
  expect(response.status(), await response.text()).toBe(200);
  return Object.fromEntries(((await response.json()) as Privilege[]).map(({ key, threshold }) => [key, threshold]));
}

/** Puts the thresholds other tests rely on back (15 / 2000 / 3000). */
async function restoreThresholds(admin: Page) {
  const response = await admin.request.put('/api/admin/privileges', { data: DEFAULT_THRESHOLDS });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('reputation on profiles', () => {
  test("an upvoted question earns its asker 10: '11 reputation' and a row linking to it, on /profile and on /profile/:username", async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'rep');
    const voter = await member(browser, baseURL, 'rep');
    const question = await askViaApi(asker.page, asker.account.username, `Reputation question ${stamp()}`);

    // Before any vote: 1 reputation, and the history says it is empty.
    await asker.page.goto('/profile');
    await expect(reputationLink(asker.page, '1')).toBeVisible();
    await expect(reputationSection(asker.page).getByText('No reputation events yet.')).toBeVisible();

    await upvoteQuestion(voter.page, question._id);

    // The asker's own profile, worded for them.
    await asker.page.goto('/profile');
    await expect(asker.page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(reputationLink(asker.page, '11')).toBeVisible();
    await expect(reputationLink(asker.page, '11')).toHaveAttribute('href', '/help/privileges');
    await expect(reputationSection(asker.page).getByRole('heading', { level: 2, name: 'Reputation' })).toBeVisible();
    await expect(historyRows(asker.page)).toHaveCount(1);
    const row = historyRows(asker.page).first();
    await expect(row.getByRole('link', { name: '+10 Your question was upvoted' })).toHaveAttribute(
      'href',
      `/question/${question._id}`,
    );
    await expect(row.locator('time')).toHaveText(/ago|now/);
    await asker.page.screenshot({ path: `${SHOTS}/profile-own-history.png`, fullPage: true });
    await reputationSection(asker.page).screenshot({ path: `${SHOTS}/profile-own-history-section.png` });

    // The row opens its question.
    await row.getByRole('link').click();
    await expect(asker.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(asker.page.getByRole('heading', { level: 1, name: question.title })).toBeVisible();

    // Someone else sees the same on the asker's profile, in neutral words; the voter has none of their own.
    await voter.page.goto(`/profile/${asker.account.username}`);
    await expect(voter.page.getByRole('heading', { level: 2, name: asker.account.username })).toBeVisible();
    await expect(reputationLink(voter.page, '11')).toBeVisible();
    await expect(historyRows(voter.page)).toHaveCount(1);
    await expect(historyRows(voter.page).first().getByRole('link', { name: '+10 Question upvoted' })).toHaveAttribute(
      'href',
      `/question/${question._id}`,
    );
    await voter.page.screenshot({ path: `${SHOTS}/profile-other-history.png`, fullPage: true });
    await voter.page.goto('/profile');
    await expect(reputationLink(voter.page, '1')).toBeVisible();
    await expect(reputationSection(voter.page).getByText('No reputation events yet.')).toBeVisible();

    // Taking the vote back takes the event back.
    await upvoteQuestion(voter.page, question._id);
    await asker.page.goto('/profile');
    await expect(reputationLink(asker.page, '1')).toBeVisible();
    await expect(reputationSection(asker.page).getByText('No reputation events yet.')).toBeVisible();
  });

  test('answers, accepts and downvotes each read as what happened, newest first, with their signed change', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'acc');
    const answerer = await member(browser, baseURL, 'acc');
    const question = await askViaApi(asker.page, asker.account.username, `Accept question ${stamp()}`);
    const answer = await answerViaApi(answerer.page, answerer.account.username, question._id, 'Try this.');
    const voted = await asker.page.request.post('/api/answer/upvoteAnswer', { data: { aid: answer._id } });
    expect(voted.status(), await voted.text()).toBe(200);
    const accepted = await asker.page.request.post('/api/answer/acceptAnswer', {
      data: { qid: question._id, aid: answer._id },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);

    // The answerer: +15 for the accept (newest), +10 for the upvote: 26.
    await answerer.page.goto('/profile');
    await expect(reputationLink(answerer.page, '26')).toBeVisible();
    await expect(historyRows(answerer.page)).toHaveCount(2);
    await expect(historyRows(answerer.page).getByRole('link')).toHaveText([
      '+15 Your answer was accepted',
      '+10 Your answer was upvoted',
    ]);
    for (const link of await historyRows(answerer.page).getByRole('link').all()) {
      await expect(link).toHaveAttribute('href', `/question/${question._id}`);
    }

    // The asker: +2 for accepting someone else's answer.
    await asker.page.goto('/profile');
    await expect(reputationLink(asker.page, '3')).toBeVisible();
    await expect(historyRows(asker.page).getByRole('link')).toHaveText(['+2 You accepted an answer to your question']);

    // A third member downvotes the answer: -2 to the answerer, -1 to the voter.
    const critic = await member(browser, baseURL, 'acc');
    const downvoted = await critic.page.request.post('/api/answer/downvoteAnswer', { data: { aid: answer._id } });
    expect(downvoted.status(), await downvoted.text()).toBe(200);
    await answerer.page.reload();
    await expect(reputationLink(answerer.page, '24')).toBeVisible();
    await expect(historyRows(answerer.page).first().getByRole('link')).toHaveText('-2 Your answer was downvoted');
    await critic.page.goto(`/profile/${critic.account.username}`);
    await expect(reputationLink(critic.page, '1')).toBeVisible();
    await expect(historyRows(critic.page).getByRole('link')).toHaveText(['-1 You downvoted an answer']);
  });

  test("an admin's adjustments: thousands separators, rows with no question link, and /help/privileges from the profile", async ({
    browser,
    baseURL,
  }) => {
    const admin = await adminPage(browser, baseURL);
    const someone = await member(browser, baseURL, 'adj');
    const username = someone.account.username;

    // Exactly at 'Flag to hide' (15): they have it, and need more for the others.
    expect(await adjust(admin, username, 14, 'Helpful in chat')).toEqual({ username, reputation: 15 });
    await someone.page.goto('/profile');
    await expect(reputationLink(someone.page, '15')).toBeVisible();
    const adjustment = historyRows(someone.page).first();
    await expect(adjustment).toContainText('+14 An admin adjusted your reputation');
    await expect(adjustment.getByRole('link')).toHaveCount(0);
    await expect(adjustment.locator('time')).toHaveText(/ago|now/);

    await reputationLink(someone.page, '15').click();
    await expect(someone.page).toHaveURL(/\/help\/privileges$/);
    await expect(someone.page.getByRole('heading', { level: 1, name: 'Privileges' })).toBeVisible();
    await expect(someone.page.getByText('You have 15 reputation.')).toBeVisible();
    await expect(someone.page.getByRole('heading', { level: 2 })).toHaveText([
      'Flag to hide',
      'Edit any post',
      'Vote to close',
    ]);
    const flag = privilegeCard(someone.page, 'Flag to hide');
    await expect(flag).toContainText('Your spam and rude flags count toward hiding a post');
    await expect(flag).toContainText('15 reputation');
    await expect(flag).toContainText('You have this');
    const edit = privilegeCard(someone.page, 'Edit any post');
    await expect(edit).toContainText("Edit others' questions and answers");
    await expect(edit).toContainText('2,000 reputation');
    await expect(edit).toContainText('1,985 more reputation needed');
    await expect(edit).not.toContainText('You have this');
    const close = privilegeCard(someone.page, 'Vote to close');
    await expect(close).toContainText('Vote to close and to reopen questions');
    await expect(close).toContainText('3,000 reputation');
    await expect(close).toContainText('2,985 more reputation needed');
    await someone.page.screenshot({ path: `${SHOTS}/help-privileges.png`, fullPage: true });

    // A big adjustment: '12,345 reputation', newest first, each an adjustment without a link.
    await adjust(admin, username, 12_330, 'Community award');
    await someone.page.goto('/profile');
    await expect(reputationLink(someone.page, '12,345')).toBeVisible();
    await expect(historyRows(someone.page)).toHaveCount(2);
    await expect(historyRows(someone.page).first()).toContainText('+12,330 An admin adjusted your reputation');
    await expect(historyRows(someone.page).nth(1)).toContainText('+14 An admin adjusted your reputation');
    await expect(reputationSection(someone.page).getByRole('link')).toHaveCount(0);
    await admin.goto(`/profile/${username}`);
    await expect(reputationLink(admin, '12,345')).toBeVisible();
    await expect(historyRows(admin).first()).toContainText('+12,330 Adjusted by an admin');

    // Every privilege now.
    await someone.page.goto('/help/privileges');
    await expect(someone.page.getByText('You have 12,345 reputation.')).toBeVisible();
    for (const name of ['Flag to hide', 'Edit any post', 'Vote to close']) {
      await expect(privilegeCard(someone.page, name)).toContainText('You have this');
    }
    await expect(someone.page.getByText(/more reputation needed/)).toHaveCount(0);
  });
});

test.describe('the admin sets the thresholds', () => {
  test("the Privileges form shows the thresholds, saves one, and shows the server's error for 0", async ({
    browser,
    baseURL,
  }) => {
    const admin = await adminPage(browser, baseURL);
    const someone = await member(browser, baseURL, 'thr');
    await adjust(admin, someone.account.username, 14, 'At the flag threshold');
    try {
      await admin.goto('/admin/users');
      await expect(admin.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
      const form = admin.getByRole('region', { name: 'Privileges' });
      await expect(form.getByRole('heading', { level: 2, name: 'Privileges' })).toBeVisible();
      await expect(form.getByLabel('Flag to hide')).toHaveValue('15');
      await expect(form.getByLabel('Edit any post')).toHaveValue('2000');
      await expect(form.getByLabel('Vote to close')).toHaveValue('3000');

      // A new threshold: saved, said so, and what GET /api/privileges answers.
      await form.getByLabel('Flag to hide').fill('20');
      const saved = admin.waitForResponse((response) => response.url().endsWith('/api/admin/privileges'));
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      const put = await saved;
      expect(put.status()).toBe(200);
      expect(put.request().postDataJSON()).toEqual({ flagToHide: 20, editAny: 2000, closeVote: 3000 });
      await expect(form.getByRole('status')).toHaveText('Privilege thresholds saved.');
      await expect(form.getByLabel('Flag to hide')).toHaveValue('20');
      expect(await thresholds(admin)).toEqual({ ...DEFAULT_THRESHOLDS, flagToHide: 20 });
      await form.screenshot({ path: `${SHOTS}/admin-privileges-saved.png` });

      // The member at 15 now needs 5 more.
      await someone.page.goto('/help/privileges');
      await expect(privilegeCard(someone.page, 'Flag to hide')).toContainText('20 reputation');
      await expect(privilegeCard(someone.page, 'Flag to hide')).toContainText('5 more reputation needed');

      // 0 is refused by the server, whose words show; nothing changes.
      await form.getByLabel('Vote to close').fill('0');
      const refused = admin.waitForResponse((response) => response.url().endsWith('/api/admin/privileges'));
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      expect((await refused).status()).toBe(400);
      await expect(form.getByRole('alert')).toHaveText(`Error: ${THRESHOLD_ERROR}`);
      await expect(form.getByRole('status', { includeHidden: true })).toHaveText('');
      expect(await thresholds(admin)).toEqual({ ...DEFAULT_THRESHOLDS, flagToHide: 20 });
      await form.screenshot({ path: `${SHOTS}/admin-privileges-error.png` });

      // A reload shows the saved values.
      await admin.reload();
      await expect(form.getByLabel('Flag to hide')).toHaveValue('20');
      await expect(form.getByLabel('Vote to close')).toHaveValue('3000');

      // Put back through the form too.
      await form.getByLabel('Flag to hide').fill('15');
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(form.getByRole('status')).toHaveText('Privilege thresholds saved.');
      expect(await thresholds(admin)).toEqual(DEFAULT_THRESHOLDS);
      await admin.screenshot({ path: `${SHOTS}/admin-users.png`, fullPage: true });
    } finally {
      await restoreThresholds(admin);
    }
  });
});

test.describe('accessibility', () => {
  // axe-core goes in as a script tag, which the pages' CSP would refuse.
  test.use({ bypassCSP: true });

  const palettes: AccessibilitySettings['colorBlindness'][] = ['none', 'redgreen', 'blueyellow', 'grayscale'];

  for (const colorBlindness of palettes) {
    test(`/profile with history, /help/privileges and the admin's Privileges form pass axe (${colorBlindness}, with and without low vision)`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const admin = await adminPage(browser, baseURL);
      const asker = await member(browser, baseURL, 'axe');
      const voter = await member(browser, baseURL, 'axe');
      const question = await askViaApi(asker.page, asker.account.username, `Axe reputation ${stamp()}`);
      await upvoteQuestion(voter.page, question._id);
      await adjust(admin, asker.account.username, 1989, 'Axe check');

      for (const lowVision of [false, true]) {
        const suffix = `${colorBlindness}${lowVision ? '-lv' : ''}`;
        const themed = [colorBlindness === 'none' ? '' : colorBlindness, lowVision ? 'low-vision' : '']
          .join(' ')
          .trim();
        for (const page of [asker.page, admin])
          await overrideAccessibilitySettings(page, { colorBlindness, lowVision });

        await asker.page.goto('/profile');
        await expect(asker.page.locator('body')).toHaveClass(themed);
        await expect(reputationLink(asker.page, '2,000')).toBeVisible();
        await expect(historyRows(asker.page)).toHaveCount(2);
        await expectNoSeriousAxeViolations(asker.page);
        await reputationSection(asker.page).screenshot({ path: `${SHOTS}/history-${suffix}.png` });

        // One privilege had, two not.
        await asker.page.goto('/help/privileges');
        await expect(privilegeCard(asker.page, 'Edit any post')).toContainText('You have this');
        await expect(privilegeCard(asker.page, 'Vote to close')).toContainText('1,000 more reputation needed');
        await expectNoSeriousAxeViolations(asker.page);
        await asker.page.screenshot({ path: `${SHOTS}/privileges-${suffix}.png`, fullPage: true });

        // The admin's form, with the server's error showing.
        await admin.goto('/admin/users');
        const form = admin.getByRole('region', { name: 'Privileges' });
        await expect(form.getByLabel('Flag to hide')).toHaveValue('15');
        await expectNoSeriousAxeViolations(admin);
        await form.getByLabel('Flag to hide').fill('0');
        await form.getByRole('button', { name: 'Save', exact: true }).click();
        await expect(form.getByRole('alert')).toContainText(THRESHOLD_ERROR);
        await expectNoSeriousAxeViolations(admin);
        await form.screenshot({ path: `${SHOTS}/admin-privileges-${suffix}.png` });

        for (const page of [asker.page, admin]) await page.unroute('**/api/account/me');
      }
    });
  }

  test('the profile and /help/privileges fit a phone', async ({ browser, baseURL }) => {
    const someone = await member(browser, baseURL, 'pho', { viewport: { width: 390, height: 844 } });
    const admin = await adminPage(browser, baseURL);
    await adjust(admin, someone.account.username, 99_999, 'A long reason for a long number');
    await someone.page.goto('/profile');
    await expect(reputationLink(someone.page, '100,000')).toBeVisible();
    const fits = () =>
      someone.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    expect(await fits()).toBe(true);
    await someone.page.screenshot({ path: `${SHOTS}/profile-phone.png`, fullPage: true });
    await someone.page.goto('/help/privileges');
    await expect(privilegeCard(someone.page, 'Vote to close')).toContainText('You have this');
    expect(await fits()).toBe(true);
    await someone.page.screenshot({ path: `${SHOTS}/privileges-phone.png`, fullPage: true });
  });
});
