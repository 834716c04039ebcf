// Trust cases 15 and 16: markup typed into any text field shows as text and never runs,
// and only https:// links become anchors.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newTestAccount, uniqueUsername } from './support';

const SCRIPT = '<script>xss()</script>';
const IMG = '<img src=x onerror=xss()>';
const SVG = '<svg onload=xss()>';
/** Tags cannot hold spaces. */
const SVG_TAG = '<svg/onload=xss()>';
const ALL = `${SCRIPT} ${IMG} ${SVG}`;
const BAD_LINKS = '[click](javascript:xss()) [data](data:text/html,hi) [enc](&#106;avascript:xss())';

declare global {
  interface Window {
    xss: () => void;
    xssRan?: boolean;
  }
}

async function signUp(request: APIRequestContext) {
  const account = newTestAccount('xss');
  const response = await request.post('/api/account/addAccount', { data: account });
  expect(response.ok()).toBe(true);
  return account;
}

async function post<T>(
  request: APIRequestContext,
  url: string,
  data: object,
  method: 'post' | 'put' = 'post',
): Promise<T> {
  const response = await request[method](url, { data });
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

/** Visits a page and checks that the payload is shown as text and that nothing ran. */
async function expectInert(page: Page, url: string, shown: string[]) {
  await page.goto(url);
  for (const text of shown) await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
  expect(await page.evaluate(() => window.xssRan === true)).toBe(false);
  // None of the payloads became an element inside the app.
  expect(await page.locator('#root img[src="x"], #root svg[onload], #root script').count()).toBe(0);
}

test.describe('markup in every text field stays text', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      window.xss = () => {
        window.xssRan = true;
      };
    });
  });

  test('questions, answers, comments, tags, bios, forums, messages and PorpChat', async ({ page, browser }) => {
    const author = await signUp(page.request);
    const question = await post<{ _id: string }>(page.request, '/api/addQuestion', {
      title: ALL,
      text: `${ALL} [safe](https://example.com/ok)`,
      tags: [{ name: SVG_TAG }, { name: 'plain' }],
    });
    const answer = await post<{ _id: string }>(page.request, '/api/answer/addAnswer', {
      qid: question._id,
      ans: { text: `answer ${IMG}` },
    });
    await post(page.request, '/api/comment/addComment', {
      id: question._id,
      type: 'question',
      // The server refuses such links in questions and answers; comments keep them as typed.
      comment: { text: `comment ${SCRIPT} ${BAD_LINKS}` },
    });
    await post(page.request, '/api/comment/addComment', {
      id: answer._id,
      type: 'answer',
      comment: { text: `reply ${SVG}` },
    });
    await post(page.request, '/api/profile/updateBio', { username: author.username, bio: `bio ${ALL}` }, 'put');
    const forum = await post<{ thread: string }>(page.request, '/api/forum/addForum', {
      name: `forum ${IMG} ${uniqueUsername('f')}`,
      description: `about ${SCRIPT}`,
    });
    await post(page.request, '/api/message/addMessage', {
      tid: forum.thread,
      msg: { content: `forum message ${SVG}` },
    });

    await expectInert(page, '/home', [ALL]);
    await expectInert(page, `/question/${question._id}`, [ALL, `answer ${IMG}`, `comment ${SCRIPT}`, `reply ${SVG}`]);
    // Only the https link is an anchor; the others stay text.
    const links = page.locator('#root a[href^="javascript:"], #root a[href^="data:"], #root a[href*="&#"]');
    expect(await links.count()).toBe(0);
    await expect(page.getByRole('link', { name: 'safe' })).toHaveAttribute('href', 'https://example.com/ok');
    await expect(page.getByRole('link', { name: 'safe' })).toHaveAttribute('rel', /noopener/);
    await expectInert(page, `/home?tag=${encodeURIComponent(SVG_TAG)}`, [ALL, SVG_TAG]);
    await expectInert(page, '/profile', [`bio ${ALL}`]);
    await expectInert(page, '/forums', [`about ${SCRIPT}`]);
    await expectInert(page, `/threads/${forum.thread}`, [`forum message ${SVG}`]);

    // A direct message, read by its recipient.
    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    await reader.addInitScript(() => {
      window.xss = () => {
        window.xssRan = true;
      };
    });
    const recipient = await signUp(reader.request);
    const thread = await post<{ _id: string }>(page.request, '/api/thread/addThread', {
      accounts: [author.username, recipient.username],
    });
    await post(page.request, '/api/message/addMessage', { tid: thread._id, msg: { content: `dm ${IMG}` } });
    await expectInert(reader, '/threads', [`dm ${IMG}`]);
    await expectInert(reader, `/threads/${thread._id}`, [`dm ${IMG}`]);
    await expectInert(reader, `/profile/${author.username}`, [`bio ${ALL}`]);
    await readerContext.close();
  });

  test('a PorpChat name and message', async ({ page }) => {
    await page.request.post('/api/message/addMessage', {
      data: { tid: 'porpchat', msg: { content: `chat ${SCRIPT}`, sender: IMG } },
    });
    await page.goto('/');
    await page.getByLabel('Username').fill(SVG);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/porpchat$/);
    await expectInert(page, '/porpchat', [`chat ${SCRIPT}`, IMG]);
  });
});
