/**
 * A member's first week (docs/product.md section 5), issue 32 items 1, 2, 3 and 8: every screen
 * fits its viewport from 320 px, a long code line scrolling inside its own block; a code
 * block uses the post's whole width on a wide screen; /new/answer/{qid} shows the question
 * above the form; the flag dialog's 'Flag' is the primary action; a pending save says
 * 'Saving...'; the account settings' columns line up. Against the built server in Chromium.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import {
  answerViaApi,
  askViaApi,
  expectNoSeriousAxeViolations,
  member,
  overrideAccessibilitySettings,
  registerViaApi,
  stamp,
  test,
  type Palette,
} from './support.ts';

const LONG_LINE = `const sonar = ${'"ping",'.repeat(60)};`;
const LONG_URL = `https://example.com/${'deep/'.repeat(40)}end`;
/** A post with a long code line, long inline code and a long link text. */
const POST = [
  'A long line:',
  '',
  '```ts',
  LONG_LINE,
  '```',
  '',
  `Inline: \`${'x'.repeat(150)}\` and [${LONG_URL}](${LONG_URL}).`,
].join('\n');

/** Phone widths, and the narrowest with low vision's larger text. */
const PHONES = [
  { width: 320, lowVision: false },
  { width: 390, lowVision: false },
  { width: 320, lowVision: true },
] as const;

const THEMES: Palette[] = [false, true].flatMap((lowVision) =>
  (['none', 'redgreen', 'blueyellow', 'grayscale'] as const).map((colorBlindness) => ({ lowVision, colorBlindness })),
);

/** The page is no wider than the viewport: nothing scrolls sideways but the code blocks. */
async function expectFitsViewport(page: Page, where: string): Promise<void> {
  const { scrollWidth, viewport, past } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    // What sticks out, to say where a failure comes from.
    past: Array.from(document.body.querySelectorAll('*'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  }));
  expect(scrollWidth, `${where} at ${viewport} px: ${past.join(', ')}`).toBeLessThanOrEqual(viewport);
}

const previewCode = (page: Page) =>
  page.getByRole('region', { name: 'Preview' }).getByRole('group', { name: 'TypeScript code' });

/** Shows the preview of the Markdown field labelled `label`, holding POST, and waits for its code. */
async function previewPost(page: Page, label: string): Promise<void> {
  await page.getByLabel(label).fill(POST);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(previewCode(page)).toBeVisible();
}

test.describe("a member's first week: layout", () => {
  // axe-core is injected as a script, which the app's CSP (script-src 'self') would block.
  test.use({ bypassCSP: true });

  test('a long code line scrolls inside its block and never widens the page at 320 and 390 px', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const { page, account } = await member(browser, baseURL, 'wide');
    const question = await askViaApi(page, account.username, `Wide code ${stamp()}`, { text: POST });
    const answer = await answerViaApi(page, account.username, question._id, POST);
    const other = await member(browser, baseURL, 'wide');
    const thread = (await (
      await page.request.post('/api/thread/addThread', {
        data: {
          messages: [],
          accounts: [account.username, other.account.username],
          threadUpdatedDateTime: new Date().toISOString(),
        },
      })
    ).json()) as { _id: string };
    const forum = (await (
      await page.request.post('/api/forum/addForum', {
        data: { name: `Wide forum ${stamp()}`, description: 'Long lines.', thread: '' },
      })
    ).json()) as { thread: string };
    const message = `See \`${'y'.repeat(150)}\` at ${LONG_URL}`;
    for (const tid of [thread._id, forum.thread]) {
      const sent = await page.request.post('/api/message/addMessage', {
        data: {
          tid,
          msg: {
            content: message,
            sender: account.username,
            messageDateTime: new Date().toISOString(),
            views: [],
            likes: [],
          },
        },
      });
      expect(sent.status(), await sent.text()).toBe(200);
    }

    for (const { width, lowVision } of PHONES) {
      await page.unrouteAll({ behavior: 'wait' });
      await overrideAccessibilitySettings(page, { lowVision, colorBlindness: 'none' });
      await page.setViewportSize({ width, height: 800 });

      await page.goto('/new/question');
      await previewPost(page, 'Question Text');
      await expectFitsViewport(page, 'the ask form preview');
      // The code scrolls inside its own block, which takes the keyboard for it.
      await expect(previewCode(page)).toHaveAttribute('tabindex', '0');

      await page.goto(`/new/answer/${question._id}`);
      await previewPost(page, 'Answer Text');
      await expectFitsViewport(page, 'the answer form preview');

      for (const path of [`/edit/question/${question._id}`, `/edit/answer/${answer._id}`]) {
        await page.goto(path);
        await page.getByRole('button', { name: 'Preview' }).click();
        await expect(previewCode(page)).toBeVisible();
        await expectFitsViewport(page, path);
      }

      await page.goto(`/question/${question._id}`);
      await expect(page.getByRole('group', { name: 'TypeScript code' })).toHaveCount(2);
      await expectFitsViewport(page, 'the question page');

      for (const tid of [thread._id, forum.thread]) {
        await page.goto(`/threads/${tid}`);
        await expect(page.getByRole('log')).toContainText('yyyy');
        await expectFitsViewport(page, `the thread ${tid}`);
      }

      // The other screens a new member meets.
      for (const [path, heading] of [
        ['/home', 'All Questions'],
        ['/tags', /Tags/],
        ['/threads', /Threads/],
        ['/forums', /Forums/],
        ['/profile', 'Profile'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expectFitsViewport(page, path);
      }
    }
  });

  test('at 1280 px a code block is as wide as the body of its post', async ({ page }) => {
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Wide screen ${stamp()}`, { text: POST });
    await answerViaApi(page, account.username, question._id, POST);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/question/${question._id}`);
    const posts = page.locator('.post__body');
    await expect(posts).toHaveCount(2);
    for (const post of await posts.all()) {
      const body = await post.boundingBox();
      const block = await post.locator('.code-block').boundingBox();
      expect(Math.abs(block!.width - body!.width)).toBeLessThanOrEqual(1);
    }
    // The preview shows the block as the page will: across the whole preview.
    await page.goto(`/new/answer/${question._id}`);
    await previewPost(page, 'Answer Text');
    const preview = page.getByRole('region', { name: 'Preview' });
    const inner = await preview.evaluate((box) => {
      const style = getComputedStyle(box);
      return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    });
    const block = await preview.locator('.code-block').boundingBox();
    expect(Math.abs(block!.width - inner)).toBeLessThanOrEqual(1);
  });

  test("the answer form shows the question's title and text; a missing question says so", async ({ page }) => {
    const account = await registerViaApi(page.request);
    const title = `Where do porpoises sleep ${stamp()}`;
    const question = await askViaApi(page, account.username, title, {
      text: 'They **rest** near the surface.\n\n```ts\nsleep(pod);\n```',
    });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/new/answer/${question._id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Answer the Question' })).toBeVisible();
      const shown = page.getByRole('article', { name: title });
      await expect(shown.getByRole('heading', { name: title })).toBeVisible();
      // Rendered Markdown, by the page's own renderer.
      await expect(shown.locator('strong')).toHaveText('rest');
      await expect(shown.getByRole('group', { name: 'TypeScript code' })).toHaveText('sleep(pod);');
      // The spec's form stays as it is, below the question.
      await expect(page.getByLabel('Answer Text')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Post Answer' })).toBeVisible();
      await expectFitsViewport(page, 'the answer form');
    }
    await page.getByLabel('Answer Text').fill('In pods, half asleep.');
    await page.getByRole('button', { name: 'Post Answer' }).click();
    await expect(page).toHaveURL(new RegExp(`/question/${question._id}$`));

    // Not found: as the question page says it, and no form.
    await page.goto('/new/answer/999999999');
    await expect(page.getByRole('heading', { level: 1, name: 'Question not found' })).toBeVisible();
    await expect(page.getByLabel('Answer Text')).toHaveCount(0);
    // Deleted (here by its asker, who may still see it on its page): it takes no answers.
    const gone = await askViaApi(page, account.username, `Deleted soon ${stamp()}`);
    const deleted = await page.request.delete(`/api/question/${gone._id}`);
    expect(deleted.status(), await deleted.text()).toBe(200);
    await page.goto(`/new/answer/${gone._id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Question not found' })).toBeVisible();
    await expect(page.getByLabel('Answer Text')).toHaveCount(0);
  });

  test("the flag dialog's 'Flag' is the primary action and 'Cancel' the secondary one", async ({
    browser,
    baseURL,
  }) => {
    const author = await member(browser, baseURL, 'flag');
    const question = await askViaApi(author.page, author.account.username, `Flag looks ${stamp()}`);
    const { page } = await member(browser, baseURL, 'flag');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/question/${question._id}`);
      await page.getByRole('button', { name: 'Flag this question' }).click();
      const dialog = page.getByRole('dialog');
      const flag = dialog.getByRole('button', { name: 'Flag', exact: true });
      const cancel = dialog.getByRole('button', { name: 'Cancel' });
      await expect(flag).toHaveClass(/\bbutton--primary\b/);
      await expect(cancel).not.toHaveClass(/\bbutton--primary\b/);
      const look = (button: Locator) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(await look(flag)).not.toBe(await look(cancel));
      await cancel.click();
      await expect(dialog).toBeHidden();
    }
  });

  test("a pending password or email change says 'Saving...' until the server answers", async ({ page }) => {
    const account = await registerViaApi(page.request);
    await page.goto('/profile');
    const settings = page.getByRole('region', { name: 'Account settings' });
    const password = settings.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current password').fill(account.password);
    await password.getByLabel('New password').fill(`${account.password}-2`);

    // The request is held until the test releases it: no timing.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached = () => {};
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/api/account/changePassword', async (route) => {
      reached();
      await held;
      await route.continue();
    });
    await password.getByRole('button', { name: 'Change Password' }).click();
    await arrived;
    const pending = password.getByRole('button', { name: 'Saving...' });
    await expect(pending).toBeVisible();
    await expect(pending).toHaveAttribute('aria-disabled', 'true');
    release();
    await expect(password.getByRole('status')).toContainText('Your password was changed.');
    await expect(password.getByRole('button', { name: 'Change Password' })).toHaveAttribute('aria-disabled', 'false');

    // The email form does the same.
    const email = settings.getByRole('form', { name: 'Change email' });
    await email.getByLabel('New email').fill(`new-${account.email}`);
    await email.getByLabel('Current password').fill(`${account.password}-2`);
    let releaseEmail = () => {};
    const emailHeld = new Promise<void>((resolve) => (releaseEmail = resolve));
    await page.route('**/api/account/changeEmail', async (route) => {
      await emailHeld;
      await route.continue();
    });
    await email.getByRole('button', { name: 'Change Email' }).click();
    await expect(email.getByRole('button', { name: 'Saving...' })).toBeVisible();
    releaseEmail();
    await expect(email.getByRole('button', { name: 'Change Email' })).toBeVisible();

    // And the bio's 'Save'.
    let releaseBio = () => {};
    const bioHeld = new Promise<void>((resolve) => (releaseBio = resolve));
    await page.route('**/api/profile/updateBio', async (route) => {
      await bioHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Edit Bio' }).click();
    await page.getByLabel('Edit your bio').fill('Slow sonar.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Saving...' })).toBeVisible();
    releaseBio();
    await expect(page.getByText('Slow sonar.')).toBeVisible();
  });

  test('the two account settings forms line up at 1280 px and their buttons match', async ({ page }) => {
    await registerViaApi(page.request);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/profile');
    const settings = page.getByRole('region', { name: 'Account settings' });
    await expect(settings.getByRole('button', { name: 'Change Email' })).toBeVisible();
    const password = settings.getByRole('form', { name: 'Change password' });
    const email = settings.getByRole('form', { name: 'Change email' });
    const handles = await Promise.all([
      password.getByRole('button', { name: 'Change Password' }).elementHandle(),
      email.getByRole('button', { name: 'Change Email' }).elementHandle(),
      password.getByText('New password', { exact: true }).elementHandle(),
      email.getByText('Current password', { exact: true }).elementHandle(),
    ]);
    // Measured in one frame: the sections above load on their own and can move the card
    // between two separate measurements, never within one.
    const { change, mail, newPassword, currentPassword } = await page.evaluate(([...elements]) => {
      const box = (element: Element) => {
        const { y, height } = element.getBoundingClientRect();
        return { y, height };
      };
      const [change, mail, newPassword, currentPassword] = elements.map(box);
      return { change: change!, mail: mail!, newPassword: newPassword!, currentPassword: currentPassword! };
    }, handles);
    expect(Math.abs(change.height - mail.height)).toBeLessThanOrEqual(1);
    expect(Math.abs(change.y - mail.y)).toBeLessThanOrEqual(1);
    // Each form's second field starts on the same line as the other's, whatever the hints above.
    expect(Math.abs(newPassword.y - currentPassword.y)).toBeLessThanOrEqual(1);
  });

  test('the answer form, a long code preview and the settings pass axe in every theme', async ({ page }) => {
    test.setTimeout(240_000);
    const account = await registerViaApi(page.request);
    const question = await askViaApi(page, account.username, `Axe answer ${stamp()}`, { text: POST });
    for (const settings of THEMES) {
      await overrideAccessibilitySettings(page, settings);
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/new/answer/${question._id}`);
        await expect(page.getByRole('article').getByRole('group', { name: 'TypeScript code' })).toBeVisible();
        await expectNoSeriousAxeViolations(page);
        await page.goto('/new/question');
        await previewPost(page, 'Question Text');
        await expectNoSeriousAxeViolations(page);
        await page.goto('/profile');
        await expect(page.getByRole('form', { name: 'Change email' })).toBeVisible();
        await expectNoSeriousAxeViolations(page);
      }
      await page.unrouteAll({ behavior: 'wait' });
    }
  });
});
