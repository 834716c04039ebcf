/**
 * Close votes and 'Edit any post' on the question page (docs/product.md section 13): members
 * with 'Vote to close' see 'Vote to close', its dialog-like form counts their vote, 'Close votes:
 * N' follows live on an open page, the third closes it and three reopen it; a member with 'Edit
 * any post' sees Edit on others' posts; axe clean in every theme.
 */
import { expect, type Page } from '@playwright/test';
import type { AccessibilitySettings } from '@porpoise/core';
import {
  adminPage,
  askViaApi,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  member,
  overrideAccessibilitySettings,
  stamp,
  test,
} from './support.ts';

/** Gives a member reputation through the admin's adjustment (docs/product.md section 13). */
async function grant(admin: Page, username: string, delta: number) {
  const response = await admin.request.post(`/api/admin/users/${username}/reputation`, {
    data: { delta, reason: 'Browser test' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('close votes', () => {
  test("three members' votes close a question live, three reopen it; below the threshold, no button", async ({
    browser,
    baseURL,
  }) => {
    const admin = await adminPage(browser, baseURL);
    const author = await member(browser, baseURL, 'cv');
    const newcomer = await member(browser, baseURL, 'cv');
    const voters = await Promise.all([1, 2, 3].map(() => member(browser, baseURL, 'cv')));
    for (const voter of voters) await grant(admin, voter.account.username, 2999);
    const question = await askViaApi(author.page, author.account.username, `Close votes ${stamp()}`);
    const path = `/question/${question._id}`;

    // The author watches the page: the count and the close arrive live.
    await gotoWhenQuestionsWatched(author.page, path);
    await newcomer.page.goto(path);
    await expect(newcomer.page.getByRole('heading', { level: 1, name: question.title })).toBeVisible();
    await expect(author.page.getByRole('button', { name: 'Vote to close' })).toHaveCount(0);
    await expect(newcomer.page.getByRole('button', { name: 'Vote to close' })).toHaveCount(0);

    const reasons = ['off-topic', 'needs details', 'needs details'] as const;
    const labels = { 'off-topic': 'Off-topic', 'needs details': 'Needs details' };
    for (const [index, voter] of voters.entries()) {
      await voter.page.goto(path);
      await voter.page.getByRole('button', { name: 'Vote to close' }).click();
      await voter.page.getByRole('radio', { name: labels[reasons[index]!] }).check();
      await voter.page.getByRole('button', { name: 'Vote to close' }).click();
      if (index < 2) {
        await expect(voter.page.getByText(`Close votes: ${index + 1}`)).toBeVisible();
        await expect(author.page.getByText(`Close votes: ${index + 1}`)).toBeVisible();
      }
      if (index === 1) await author.page.screenshot({ path: '/tmp/shots-close-votes/two-votes.png', fullPage: true });
    }
    // The third closes it with the reason most gave, for everyone at once.
    const banner = author.page.getByRole('note', { name: 'Closed' });
    await expect(banner).toContainText('Closed: needs details.');
    await expect(banner).toContainText(`Closed by ${voters[2]!.account.username}`);
    await expect(author.page.getByText(/Close votes:/)).toHaveCount(0);

    // Three reopen votes reopen it.
    for (const [index, voter] of voters.entries()) {
      await voter.page.reload();
      await voter.page.getByRole('button', { name: 'Vote to reopen' }).click();
      if (index < 2) await expect(author.page.getByText(`Reopen votes: ${index + 1}`)).toBeVisible();
      if (index === 0) await author.page.screenshot({ path: '/tmp/shots-close-votes/reopen-vote.png', fullPage: true });
    }
    await expect(author.page.getByRole('note', { name: 'Closed' })).toHaveCount(0);
    // A second vote by the same member is refused, with the server's words.
    await voters[0]!.page.reload();
    await voters[0]!.page.getByRole('button', { name: 'Vote to close' }).click();
    await voters[0]!.page.getByRole('radio', { name: 'Off-topic' }).check();
    await voters[0]!.page.getByRole('button', { name: 'Vote to close' }).click();
    await expect(voters[0]!.page.getByText('Close votes: 1')).toBeVisible();
    await voters[0]!.page.reload();
    await voters[0]!.page.getByRole('button', { name: 'Vote to close' }).click();
    await voters[0]!.page.getByRole('radio', { name: 'Off-topic' }).check();
    await voters[0]!.page.getByRole('button', { name: 'Vote to close' }).click();
    await expect(voters[0]!.page.getByText('You already voted to close this')).toBeVisible();
  });

  test("'Edit any post' shows Edit on others' questions, and the edit is saved in their name", async ({
    browser,
    baseURL,
  }) => {
    const admin = await adminPage(browser, baseURL);
    const author = await member(browser, baseURL, 'ea');
    const editor = await member(browser, baseURL, 'ea');
    const question = await askViaApi(author.page, author.account.username, `Edit any ${stamp()}`);
    await editor.page.goto(`/question/${question._id}`);
    await expect(editor.page.getByRole('heading', { level: 1, name: question.title })).toBeVisible();
    await expect(editor.page.getByRole('link', { name: 'Edit question' })).toHaveCount(0);
    await grant(admin, editor.account.username, 1999);
    await editor.page.reload();
    await editor.page.getByRole('link', { name: 'Edit question' }).click();
    await expect(editor.page).toHaveURL(new RegExp(`/edit/question/${question._id}$`));
    await editor.page.getByLabel('Question Title').fill(`${question.title} (clearer)`);
    await editor.page.getByLabel('Reason for edit').fill('A clearer title');
    await editor.page.getByRole('button', { name: 'Save Edits' }).click();
    await expect(editor.page.getByRole('heading', { level: 1, name: `${question.title} (clearer)` })).toBeVisible();
  });

  test.describe('accessibility', () => {
    // axe-core is injected as a script, which the app's Content-Security-Policy forbids.
    test.use({ bypassCSP: true });
    test("the 'Vote to close' form and 'Close votes' have no serious axe violation in any palette", async ({
      browser,
      baseURL,
    }) => {
      const admin = await adminPage(browser, baseURL);
      const author = await member(browser, baseURL, 'cvaxe');
      const voter = await member(browser, baseURL, 'cvaxe');
      await grant(admin, voter.account.username, 2999);
      const question = await askViaApi(author.page, author.account.username, `Close votes axe ${stamp()}`);
      const palettes: AccessibilitySettings['colorBlindness'][] = ['none', 'redgreen', 'blueyellow', 'grayscale'];
      for (const lowVision of [false, true]) {
        for (const colorBlindness of palettes) {
          await overrideAccessibilitySettings(voter.page, { lowVision, colorBlindness });
          await voter.page.goto(`/question/${question._id}`);
          await voter.page.getByRole('button', { name: 'Vote to close' }).click();
          await voter.page.getByRole('radio', { name: 'Duplicate' }).check();
          await expect(voter.page.getByLabel('Find the original by its title')).toBeVisible();
          await expectNoSeriousAxeViolations(voter.page);
          await voter.page.unrouteAll({ behavior: 'wait' });
        }
      }
      await voter.page.getByRole('radio', { name: 'Off-topic' }).check();
      await voter.page.getByRole('button', { name: 'Vote to close' }).click();
      await expect(voter.page.getByText('Close votes: 1')).toBeVisible();
      await expectNoSeriousAxeViolations(voter.page);
    });
  });
});
