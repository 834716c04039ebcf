/**
 * Deleting and closing (docs/product.md section 9): an answer deleted and undeleted, live between
 * two browser contexts; a moderator closes a question (a duplicate, found by its title) and
 * another member sees the banner and the disabled 'Answer Question' at once; axe on the
 * new states in every theme. Against the built server in Chromium.
 */
import { expect } from '@playwright/test';
import {
  adminPage,
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  gotoWhenQuestionsWatched,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
} from './support.ts';

test.describe('deleting and closing', () => {
  test.use({ bypassCSP: true });

  test('the author deletes an answer: marked for them, gone live for another reader, and back on undelete', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'mod');
    const author = await member(browser, baseURL, 'mod');
    const question = await askViaApi(asker.page, asker.account.username, `Delete me ${stamp()}`);
    await answerViaApi(author.page, author.account.username, question._id, 'A hasty answer.');
    await answerViaApi(asker.page, asker.account.username, question._id, 'A kept answer.');
    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);
    await gotoWhenQuestionsWatched(author.page, `/question/${question._id}`);
    const onReader = asker.page.getByRole('article', { name: `Answer by ${author.account.username}` });
    await expect(onReader).toContainText('A hasty answer.');
    await expect(asker.page.getByRole('heading', { level: 2, name: '2 Answers' })).toBeVisible();
    // Nobody else is offered the delete.
    await expect(onReader.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

    const mine = author.page.getByRole('article', { name: `Answer by ${author.account.username}` });
    await mine.getByRole('button', { name: `Delete the answer by ${author.account.username}` }).click();
    const deleted = author.page.getByRole('article', { name: `Deleted answer by ${author.account.username}` });
    await expect(deleted).toContainText('Deleted. Only its author and moderators see this answer.');
    await expect(deleted).toContainText('A hasty answer.');
    await expect(deleted.getByRole('link', { name: 'Edit answer' })).toHaveCount(0);

    // Live on the asker's page: the answer leaves, the count follows.
    await expect(asker.page.getByText('A hasty answer.')).toHaveCount(0);
    await expect(asker.page.getByRole('heading', { level: 2, name: '1 Answer' })).toBeVisible();
    // And a fresh load of the page does not have it either.
    await asker.page.reload();
    await expect(asker.page.getByText('A kept answer.')).toBeVisible();
    await expect(asker.page.getByText('A hasty answer.')).toHaveCount(0);
    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);

    await deleted.getByRole('button', { name: `Undelete the answer by ${author.account.username}` }).click();
    await expect(mine).toBeVisible();
    await expect(author.page.getByText('Only its author and moderators see this answer.')).toHaveCount(0);
    await expect(asker.page.getByText('A hasty answer.')).toBeVisible();
    await expect(asker.page.getByRole('heading', { level: 2, name: '2 Answers' })).toBeVisible();
  });

  test('a moderator closes a question as a duplicate found by title; another member sees the banner live', async ({
    browser,
    baseURL,
  }) => {
    const asker = await member(browser, baseURL, 'mod');
    const originalTitle = `Original walrus question ${stamp()}`;
    const original = await askViaApi(asker.page, asker.account.username, originalTitle);
    const question = await askViaApi(asker.page, asker.account.username, `Walrus again ${stamp()}`);
    await gotoWhenQuestionsWatched(asker.page, `/question/${question._id}`);
    await expect(asker.page.getByRole('link', { name: 'Answer Question' })).toBeVisible();
    // Closing is for moderators: the asker has no control.
    await expect(asker.page.getByRole('button', { name: 'Close question' })).toHaveCount(0);

    const moderator = await adminPage(browser, baseURL);
    await gotoWhenQuestionsWatched(moderator, `/question/${question._id}`);
    await moderator.getByRole('button', { name: 'Close question' }).click();
    // Without a reason, the form says so beside the choices.
    await moderator.getByRole('button', { name: 'Close Question' }).click();
    await expect(moderator.getByText('Choose a reason')).toBeVisible();
    await moderator.getByRole('radio', { name: 'Duplicate' }).check();
    await moderator.getByLabel('Find the original by its title').fill(originalTitle);
    // A search matches any of its words: the original is among the questions found.
    await expect(moderator.getByRole('status').filter({ hasText: /questions? match/ })).toBeVisible();
    await moderator.getByRole('radio', { name: originalTitle }).check();
    await moderator.getByRole('button', { name: 'Close Question' }).click();

    const banner = moderator.getByRole('note', { name: 'Closed' });
    await expect(banner).toContainText(`Closed as a duplicate of ${originalTitle}. It takes no new answers.`);
    // Live on the asker's page: the banner, its link to the original, and no way to answer.
    const seen = asker.page.getByRole('note', { name: 'Closed' });
    await expect(seen).toContainText(`as a duplicate of ${originalTitle}`);
    await expect(asker.page.getByRole('link', { name: 'Answer Question' })).toHaveCount(0);
    await expect(asker.page.getByRole('button', { name: 'Answer Question' })).toBeDisabled();
    await expect(seen.getByRole('button', { name: 'Reopen' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(asker.page);

    await banner.getByRole('button', { name: 'Reopen' }).click();
    await expect(asker.page.getByRole('note', { name: 'Closed' })).toHaveCount(0);
    await expect(asker.page.getByRole('link', { name: 'Answer Question' })).toBeVisible();
    await seen.waitFor({ state: 'detached' });
    await asker.page.goto(`/question/${original._id}`);
    await expect(asker.page.getByRole('heading', { level: 1, name: originalTitle })).toBeVisible();
  });

  for (const colorBlindness of ['none', 'redgreen', 'blueyellow', 'grayscale'] as const) {
    for (const lowVision of [false, true]) {
      test(`deleted posts, the closed banner and the close form pass axe (${colorBlindness}${lowVision ? ', low vision' : ''})`, async ({
        page,
        browser,
        baseURL,
      }) => {
        const account = await registerViaApi(page.request);
        const question = await askViaApi(page, account.username, `Axe moderation ${stamp()}`);
        const answer = await answerViaApi(page, account.username, question._id, 'Deleted, still seen by me.');
        const comment = await page.request.post('/api/comment/addComment', {
          data: { id: question._id, type: 'question', comment: { text: 'A deleted comment.' } },
        });
        const { _id: cid } = (await comment.json()) as { _id: string };
        expect((await page.request.delete(`/api/answer/${answer._id}`)).status()).toBe(200);
        expect((await page.request.delete(`/api/comment/${cid}`)).status()).toBe(200);
        const moderator = await adminPage(browser, baseURL);
        const closed = await moderator.request.post(`/api/question/${question._id}/close`, {
          data: { reason: 'needs details' },
        });
        expect(closed.status()).toBe(200);

        await overrideAccessibilitySettings(page, { lowVision, colorBlindness });
        await page.goto(`/question/${question._id}`);
        await expect(page.getByText('Only its author and moderators see this answer.')).toBeVisible();
        await expect(page.getByText('Deleted comment:')).toBeVisible();
        await expect(page.getByRole('note', { name: 'Closed' })).toContainText('Closed: needs details.');
        await expectNoSeriousAxeViolations(page);

        // The author's deleted question, and the moderator's close form on another question.
        const other = await askViaApi(page, account.username, `Axe deleted ${stamp()}`);
        expect((await page.request.delete(`/api/question/${other._id}`)).status()).toBe(200);
        await page.goto(`/question/${other._id}`);
        await expect(page.getByText('Only its author and moderators see this question.')).toBeVisible();
        await expect(page.getByRole('button', { name: 'Undelete' })).toBeVisible();
        await expectNoSeriousAxeViolations(page);

        await overrideAccessibilitySettings(moderator, { lowVision, colorBlindness });
        const open = await askViaApi(page, account.username, `Axe close form ${stamp()}`);
        await moderator.goto(`/question/${open._id}`);
        await moderator.getByRole('button', { name: 'Close question' }).click();
        await moderator.getByRole('radio', { name: 'Duplicate' }).check();
        await moderator.getByLabel('Find the original by its title').fill('Axe moderation');
        await expect(moderator.getByRole('status').filter({ hasText: /match/ })).toBeVisible();
        await expectNoSeriousAxeViolations(moderator);
        await moderator.context().close();
      });
    }
  }
});
