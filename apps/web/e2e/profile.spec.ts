import { expect } from '@playwright/test';
import { registerViaApi, test } from './support.ts';

test.describe('profiles', () => {
  test('own profile: details, empty lists, editing the bio (cancel and save), signing out', async ({ page }) => {
    const account = await registerViaApi(page.request);
    await page.goto('/home');
    await page.getByRole('button', { name: `Go to ${account.username}'s profile` }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: account.username })).toBeVisible();
    await expect(page.getByText(account.email)).toBeVisible();
    await expect(page.getByText('This is your bio. Tell us something about yourself!')).toBeVisible();
    await expect(page.getByText('No questions found.')).toBeVisible();
    await expect(page.getByText('No answers found.')).toBeVisible();

    // Edit, then Cancel: the bio reverts.
    await page.getByRole('button', { name: 'Edit Bio' }).click();
    const editor = page.getByLabel('Edit your bio');
    await expect(editor).toBeFocused();
    await editor.fill('Something I will not keep');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('This is your bio. Tell us something about yourself!')).toBeVisible();
    await expect(page.getByText('Something I will not keep')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit Bio' })).toBeFocused();

    // Edit, then Save: the server's bio shows, and stays after a reload.
    const updates = page.waitForResponse((response) => response.url().endsWith('/api/profile/updateBio'));
    await page.getByRole('button', { name: 'Edit Bio' }).click();
    await expect(editor).toHaveValue('');
    await editor.fill('I watch porpoises.\nMostly at dawn.');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await updates).status()).toBe(200);
    await expect(page.getByText('I watch porpoises.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Bio' })).toBeVisible();
    await page.reload();
    await expect(page.getByText('I watch porpoises.')).toBeVisible();

    // The accessibility settings can be reached from here.
    await expect(page.getByRole('link', { name: 'Accessibility settings' })).toHaveAttribute(
      'href',
      '/accessibility-settings',
    );

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/\?redirectTo=%2Fprofile$/);
  });

  test("another user's profile: default bio, their questions and answers, and an unknown user", async ({
    page,
    browser,
  }) => {
    const otherPage = await (await browser.newContext()).newPage();
    const other = await registerViaApi(otherPage.request, 'oth');
    const asked = await otherPage.request.post('/api/addQuestion', {
      data: {
        title: 'Where do porpoises sleep?',
        text: 'Curious about their resting habits.',
        tags: [{ name: 'porpoises', description: 'user added tag' }],
        askedBy: other.username,
        askDateTime: new Date().toISOString(),
        answers: [],
        upVotes: [],
        downVotes: [],
        views: [],
        comments: [],
      },
    });
    expect(asked.status()).toBe(200);
    const question = (await asked.json()) as { _id: string };
    const answered = await otherPage.request.post('/api/answer/addAnswer', {
      data: {
        qid: question._id,
        ans: { text: 'Near the surface, half awake.', ansBy: other.username, ansDateTime: new Date().toISOString() },
      },
    });
    expect(answered.status()).toBe(200);

    await registerViaApi(page.request, 'vis');
    await page.goto(`/profile/${other.username}`);
    await expect(page.getByRole('heading', { level: 2, name: other.username })).toBeVisible();
    await expect(page.getByText('No bio provided')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Bio' })).toHaveCount(0);
    const questionLink = page.getByRole('link', { name: 'Where do porpoises sleep?' });
    await expect(questionLink).toHaveAttribute('href', `/question/${question._id}`);
    const answerLink = page.getByRole('link', { name: 'Near the surface, half awake.' });
    await expect(answerLink).toHaveAttribute('href', `/question/${question._id}`);

    // A bio they write shows to others.
    await otherPage.request.put('/api/profile/updateBio', {
      data: { username: other.username, bio: 'Hello, I am new.' },
    });
    await page.reload();
    await expect(page.getByText('Hello, I am new.')).toBeVisible();

    await page.goto('/profile/no_such_user_here');
    await expect(page.getByText('Failed to load user profile')).toBeVisible();
  });

  test('the loading text shows while a profile loads', async ({ page }) => {
    await registerViaApi(page.request, 'slo');
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/profile/getBio?*', async (route) => {
      await gate;
      await route.continue();
    });
    await page.goto('/profile/somebody_else');
    await expect(page.getByText('Loading user profile...')).toBeVisible();
    release();
    await expect(page.getByText('Failed to load user profile')).toBeVisible();
  });
});
