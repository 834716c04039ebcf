/**
 * Answers that decide (docs/product.md section 7): answer votes, the accepted answer and the
 * answer order, live between two browser contexts; and the admin's roles screen
 * (section 10). Against the built server in Chromium.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import {
  answerViaApi,
  askViaApi,
  E2E_ADMIN,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  signInViaApi,
  stamp,
  test,
} from './support.ts';

/** The answer whose text is `text`, as an article labelled with its author. */
const answerWith = (page: Page, text: string): Locator => page.getByRole('article').filter({ hasText: text });
const answerTexts = (page: Page) => page.locator('ol.answers__list .post__text');

test.describe('answers that decide', () => {
  test.use({ bypassCSP: true });
  test('the asker accepts an answer; everyone sees the mark live, and the home row is marked', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'dec');
    const reader = await member(browser, baseURL, 'dec');
    const question = await askViaApi(asker.page, asker.account.username, `Accept me ${stamp()}`, {
      text: 'Which answer is best?',
      tags: [`t${stamp()}`.slice(0, 20)],
    });
    await answerViaApi(reader.page, reader.account.username, question._id, 'The first way.');
    await answerViaApi(reader.page, reader.account.username, question._id, 'The better way.');
    const readerContext = await browser.newContext({ baseURL });
    await signInViaApi(readerContext, reader.account);
    const readerHome = await readerContext.newPage();
    await gotoWhenQuestionsWatched(readerHome, '/home');
    const row = readerHome.locator('ol.q-list > li').filter({ hasText: question.title });
    await expect(row).toContainText('2 answers');
    await expect(row).not.toContainText('one accepted');

    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);
    await gotoWhenQuestionsWatched(reader.page, `/question/${question._id}`);
    // Only the asker has the control.
    await expect(reader.page.getByRole('button', { name: 'Accept this answer' })).toHaveCount(0);
    const better = answerWith(asker.page, 'The better way.');
    await better.getByRole('button', { name: 'Accept this answer' }).click();
    const unaccept = better.getByRole('button', { name: 'Unaccept this answer' });
    await expect(unaccept).toHaveAttribute('aria-pressed', 'true');
    await expect(better.getByText('Accepted answer')).toBeVisible();

    // Live on the reader's page: the mark, and the accepted answer first in the default (Score) order.
    await expect(answerWith(reader.page, 'The better way.').getByText('Accepted answer')).toBeVisible();
    await expect(answerTexts(reader.page).first()).toHaveText('The better way.');
    await expect(row).toContainText('one accepted');

    // Taking it back removes the mark everywhere.
    await unaccept.click();
    await expect(better.getByRole('button', { name: 'Accept this answer' })).toHaveAttribute('aria-pressed', 'false');
    await expect(reader.page.getByText('Accepted answer')).toHaveCount(0);
    await expect(row).not.toContainText('one accepted');
  });

  test('a vote on an answer shows its score at once and on the other page live; the order follows the score', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'dec');
    const voter = await member(browser, baseURL, 'dec');
    const question = await askViaApi(asker.page, asker.account.username, `Vote answers ${stamp()}`, {
      text: 'Which answer is best?',
      tags: [`t${stamp()}`.slice(0, 20)],
    });
    for (const text of ['Answer one.', 'Answer two.', 'Answer three.']) {
      await answerViaApi(asker.page, asker.account.username, question._id, text);
    }
    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);
    await gotoWhenQuestionsWatched(voter.page, `/question/${question._id}`);
    await expect(answerTexts(voter.page)).toHaveText(['Answer one.', 'Answer two.', 'Answer three.']);

    const third = answerWith(voter.page, 'Answer three.');
    const up = third.getByRole('button', { name: 'Upvote this answer' });
    await up.click();
    await expect(up).toHaveAttribute('aria-pressed', 'true');
    await expect(third.locator('.vote__number')).toHaveText('1');
    await expect(third.getByText('You upvoted')).toBeVisible();
    // The asker's page takes the vote live and puts the answer first by score.
    await expect(answerWith(asker.page, 'Answer three.').locator('.vote__number')).toHaveText('1');
    await expect(answerTexts(asker.page)).toHaveText(['Answer three.', 'Answer one.', 'Answer two.']);

    const sort = asker.page.getByRole('group', { name: 'Sort answers' });
    await expect(sort.getByRole('button', { name: 'Score' })).toHaveAttribute('aria-pressed', 'true');
    await sort.getByRole('button', { name: 'Oldest' }).click();
    await expect(answerTexts(asker.page)).toHaveText(['Answer one.', 'Answer two.', 'Answer three.']);
    await sort.getByRole('button', { name: 'Newest' }).click();
    await expect(sort.getByRole('button', { name: 'Newest' })).toHaveAttribute('aria-pressed', 'true');
    await expect(answerTexts(asker.page)).toHaveText(['Answer three.', 'Answer two.', 'Answer one.']);

    // Down moves the vote.
    await third.getByRole('button', { name: 'Downvote this answer' }).click();
    await expect(third.locator('.vote__number')).toHaveText('-1');
    await expect(up).toHaveAttribute('aria-pressed', 'false');
  });

  for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
    for (const lowVision of [false, true]) {
      test(`the question page with an accepted answer passes axe (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({
        page,
      }) => {
        const account = await registerViaApi(page.request);
        const question = await askViaApi(page, account.username, `Axe accepted ${stamp()}`, {
          text: 'Which answer is best?',
          tags: [`t${stamp()}`.slice(0, 20)],
        });
        const answer = await answerViaApi(page, account.username, question._id, 'Accepted and voted.');
        await answerViaApi(page, account.username, question._id, 'Another.');
        await page.request.post('/api/answer/acceptAnswer', { data: { qid: question._id, aid: answer._id } });
        await page.request.post('/api/answer/upvoteAnswer', { data: { aid: answer._id } });
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto(`/question/${question._id}`);
        await expect(page.getByText('Accepted answer')).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await page.goto('/home');
        await expect(page.locator('ol.q-list > li').filter({ hasText: question.title })).toContainText('one accepted');
        await expectNoSeriousAxeViolations(page);
      });
    }
  }
});

test.describe('editing with history', () => {
  test.use({ bypassCSP: true });

  test('the author edits a question and an answer; another page takes both live; the history shows the words changed', async ({
    browser,
    baseURL,
  }) => {
    const author = await member(browser, baseURL, 'dec');
    const reader = await member(browser, baseURL, 'dec');
    const title = `Porpoise sonar ${stamp()}`;
    const question = await askViaApi(author.page, author.account.username, title);
    await answerViaApi(author.page, author.account.username, question._id, 'Clicks bounce back.');
    await gotoWhenQuestionsWatched(reader.page, `/question/${question._id}`);
    // Only the author (or a moderator) is offered the edit.
    await expect(reader.page.getByRole('link', { name: 'Edit question' })).toHaveCount(0);

    await author.page.goto(`/question/${question._id}`);
    await author.page.getByRole('link', { name: 'Edit question' }).click();
    await expect(author.page).toHaveURL(new RegExp(`/edit/question/${question._id}$`));
    await expect(author.page.getByRole('heading', { level: 1, name: 'Edit Question' })).toBeVisible();
    const titleField = author.page.getByLabel('Question Title');
    await expect(titleField).toHaveValue(title);
    await titleField.fill(`${title} explained`);
    await author.page.getByLabel('Reason for edit').fill('more precise');
    await author.page.getByRole('button', { name: 'Save Edits' }).click();
    await expect(author.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(author.page.getByRole('heading', { level: 1, name: `${title} explained` })).toBeVisible();

    // Live on the reader's page, with the edited mark.
    await expect(reader.page.getByRole('heading', { level: 1, name: `${title} explained` })).toBeVisible();
    await expect(reader.page.getByRole('link', { name: /^edited/ }).first()).toBeVisible();

    // The answer too, through its own form.
    const answer = answerWith(author.page, 'Clicks bounce back.');
    await answer.getByRole('link', { name: 'Edit answer' }).click();
    await expect(author.page.getByLabel('Answer Text')).toHaveValue('Clicks bounce back.');
    await author.page.getByLabel('Answer Text').fill('Clicks bounce back from fish.');
    await author.page.getByRole('button', { name: 'Save Edits' }).click();
    await expect(author.page).toHaveURL(new RegExp(`/question/${question._id}$`));
    await expect(answerWith(reader.page, 'Clicks bounce back from fish.')).toBeVisible();

    // The question's history: newest first, with the words added marked.
    await reader.page
      .locator('.post--question')
      .getByRole('link', { name: /^edited/ })
      .click();
    await expect(reader.page).toHaveURL(new RegExp(`/history/question/${question._id}$`));
    const revisions = reader.page.locator('.revision');
    await expect(revisions).toHaveCount(2);
    await expect(revisions.first()).toContainText('Revision 2');
    await expect(revisions.first()).toContainText('more precise');
    await expect(revisions.first().locator('ins')).toContainText('explained');
    await expect(revisions.nth(1)).toContainText('Revision 1 (original)');
    await expectNoSeriousAxeViolations(reader.page);
  });

  for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
    for (const lowVision of [false, true]) {
      test(`the edit and history screens pass axe (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({
        page,
      }) => {
        const account = await registerViaApi(page.request);
        const question = await askViaApi(page, account.username, `Axe edit ${stamp()}`, {
          text: 'Which answer is best?',
          tags: [`t${stamp()}`.slice(0, 20)],
        });
        const edited = await page.request.put(`/api/question/${question._id}`, {
          data: { title: `${question.title} again`, text: 'Changed text.', tags: question.tags, reason: 'axe' },
        });
        expect(edited.status()).toBe(200);
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto(`/edit/question/${question._id}`);
        await expect(page.getByLabel('Reason for edit')).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await page.goto(`/history/question/${question._id}`);
        await expect(page.locator('.revision')).toHaveCount(2);
        await expectNoSeriousAxeViolations(page);
      });
    }
  }
});

test.describe('roles', () => {
  test.use({ bypassCSP: true });
  for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
    for (const lowVision of [false, true]) {
      test(`the Users screen passes axe (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({ page }) => {
        await signInViaApi(page.context(), E2E_ADMIN);
        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto('/admin/users');
        await expect(page.locator('.user-table tbody tr').first()).toBeVisible();
        await expectNoSeriousAxeViolations(page);
      });
    }
  }

  test('a member has no Users screen: no menu entry, and /admin/users sends them home', async ({ page }) => {
    await registerViaApi(page.request);
    await page.goto('/home');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the admin finds a member and makes them a moderator; the last admin keeps the role', async ({
    page,
    browser,
    baseURL,
  }) => {
    const other = await member(browser, baseURL, 'dec');
    await signInViaApi(page.context(), E2E_ADMIN);
    await page.goto('/home');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

    await page.getByLabel('Search users').fill(other.account.username);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`search=${other.account.username}`));
    const rows = page.locator('.user-table tbody tr');
    await expect(rows).toHaveCount(1);
    const role = page.getByLabel(`Role of ${other.account.username}`);
    await expect(role).toHaveValue('member');
    await role.selectOption('moderator');
    await page.getByRole('button', { name: `Save role of ${other.account.username}` }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `${other.account.username} is now moderator.` }),
    ).toBeVisible();
    const me = await other.page.request.get('/api/account/me');
    expect(((await me.json()) as { role: string }).role).toBe('moderator');

    // The admin cannot demote the only admin: the server's words, and the list shows the role kept.
    await page.getByLabel('Search users').fill(E2E_ADMIN.username);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const own = page.getByLabel(`Role of ${E2E_ADMIN.username}`);
    await own.selectOption('member');
    await page.getByRole('button', { name: `Save role of ${E2E_ADMIN.username}` }).click();
    await expect(page.getByText('The last admin cannot be removed')).toBeVisible();
    await expect(own).toHaveValue('admin');
    await expectNoSeriousAxeViolations(page);
  });
});
