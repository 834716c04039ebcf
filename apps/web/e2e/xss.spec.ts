// Trust cases 15 and 16: markup typed into any text field shows as text and never runs,
// and only https:// links become anchors.
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { registerViaApi, test, uniqueUsername } from './support.ts';

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
    const author = await registerViaApi(page.request, 'xss');
    const question = await post<{ _id: string }>(page.request, '/api/addQuestion', {
      title: ALL,
      text: `${ALL} [safe](https://example.com/ok)`,
      tags: [{ name: SVG_TAG }, { name: 'plain' }],
    });
    const answer = await post<{ _id: string }>(page.request, '/api/answer/addAnswer', {
      qid: question._id,
      ans: { text: `answer ${IMG}` },
    });
    // Links that break the rule are refused in comments too (docs/product.md section 8), and
    // nothing is stored; the markup around them stays text.
    const badComment = await page.request.post('/api/comment/addComment', {
      data: { id: question._id, type: 'question', comment: { text: `comment ${SCRIPT} ${BAD_LINKS}` } },
    });
    expect(badComment.status()).toBe(400);
    expect(await badComment.json()).toEqual(expect.objectContaining({ error: 'Invalid hyperlink format.' }));
    await post(page.request, '/api/comment/addComment', {
      id: question._id,
      type: 'question',
      comment: { text: `comment ${SCRIPT}` },
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
    const recipient = await registerViaApi(reader.request, 'xss');
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

// Issue 19: Markdown posts, comments and messages. Known payloads (script and event
// handlers, SVG, `javascript:` in every link form, CSS, nested Markdown and HTML) are
// posted as questions, answers, comments, forum and direct messages and PorpChat, and
// another account reads them: nothing runs, no dialog opens, no request leaves for a
// foreign host, and every element inside the rendered Markdown is on the allow-list.
const FOREIGN = 'foreign.example';
const MARKDOWN_PAYLOADS = [
  '<script>xss()</script>',
  '<img src=x onerror=xss()>',
  '<svg/onload=xss()>',
  '<svg><script>xss()</script></svg>',
  '<iframe src="javascript:xss()"></iframe>',
  '<a href="javascript:xss()">html link</a>',
  '<math><mtext><table><mglyph><style><img src=x onerror=xss()>',
  '[js](javascript:xss())',
  '[mixed case](JaVaScRiPt:xss())',
  '[entity](&#106;avascript:xss())',
  '[named entity](javascript&colon;xss())',
  '[pointy](<javascript:xss()>)',
  '[data](data:text/html;base64,PHNjcmlwdD54c3MoKTwvc2NyaXB0Pg==)',
  '[vb](vbscript:msgbox(1))',
  '![image js](javascript:xss())',
  `![tracking pixel](https://${FOREIGN}/pixel.png)`,
  `<https://${FOREIGN}/"onmouseover="xss()>`,
  `[quote break](https://${FOREIGN}/"onmouseover="xss())`,
  '[title break](https://example.com "t\\" onmouseover=\\"xss()")',
  `<style>@import url(https://${FOREIGN}/x.css)</style>`,
  `<div style="background:url(https://${FOREIGN}/bg.png)">styled</div>`,
  '[<img src=x onerror=xss()>](https://example.com/nested)',
  '**<img src=x onerror=xss()>** _<svg onload=xss()>_',
  '`<script>xss()</script>`',
  '```html\n<script>xss()</script>\n<img src=x onerror=xss()>\n```',
  '```js\n</code></pre><img src=x onerror=xss()>\n```',
  '> <svg onload=xss()>',
  '| <img src=x onerror=xss()> |\n|-|\n| [cell](javascript:xss()) |',
  '[ref link][r]\n\n[r]: javascript:xss()',
  'bare javascript:xss() and http://plain.example',
];

/** The payloads joined into texts of at most `max` characters (a comment holds 1,000). */
function chunks(payloads: readonly string[], max: number): string[] {
  const texts: string[] = [];
  let current = '';
  for (const payload of payloads) {
    if (current !== '' && current.length + payload.length + 2 > max) {
      texts.push(current);
      current = '';
    }
    current = current === '' ? payload : `${current}\n\n${payload}`;
  }
  if (current !== '') texts.push(current);
  return texts;
}

/** Every element inside rendered Markdown that is not on the allow-list, as its markup. */
function outsideAllowList(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const tags = new Set(
      'div span p h3 h4 h5 h6 strong em s code a br blockquote ol ul li input table thead tbody tr th td pre hr button'.split(
        ' ',
      ),
    );
    // data-discover: React Router's mark on its own links (a mention's link to a profile).
    const attributes = new Set(
      'class href target rel type disabled checked aria-label aria-labelledby id aria-pressed tabindex role scope start data-discover'.split(
        ' ',
      ),
    );
    /** An https:// address, or a mention's profile (docs/product.md section 11): /profile/{a username}. */
    const safeHref = (element: Element, value: string) =>
      /^https:\/\/[^\s"'<>`]+$/.test(value) ||
      (element.classList.contains('markdown__mention') && /^\/profile\/[A-Za-z0-9._-]{3,30}$/.test(value));
    const found: string[] = [];
    for (const root of document.querySelectorAll('.markdown')) {
      for (const element of root.querySelectorAll('*')) {
        if (!tags.has(element.localName)) found.push(element.outerHTML.slice(0, 120));
        for (const attribute of element.attributes) {
          const bad =
            !attributes.has(attribute.name) ||
            (attribute.name === 'href' && !safeHref(element, attribute.value)) ||
            (attribute.name === 'data-discover' && attribute.value !== 'true');
          if (bad) found.push(`${element.localName} ${attribute.name}="${attribute.value}"`);
        }
      }
    }
    return found;
  });
}

test.describe('Markdown payloads stay inert for every reader', () => {
  test('questions, answers, comments, forum and direct messages and PorpChat', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const author = await registerViaApi(page.request, 'xss');
    const refused: string[] = [];
    const accepted: string[] = [];
    for (const payload of MARKDOWN_PAYLOADS) {
      const response = await page.request.post('/api/addQuestion', {
        data: { title: 'probe', text: payload, tags: [{ name: 'probe' }] },
      });
      // A question the server takes is deleted again: only the probe's verdict matters here.
      if (response.ok()) {
        accepted.push(payload);
        const { _id } = (await response.json()) as { _id: string };
        await page.request.delete(`/api/question/${_id}`);
      } else {
        expect(await response.json()).toEqual(expect.objectContaining({ error: 'Invalid hyperlink format.' }));
        refused.push(payload);
      }
    }
    // Every payload with a link that breaks the spec's rule is refused in a post; the rest are taken.
    expect(refused).toContain('[js](javascript:xss())');
    expect(refused).toContain('[data](data:text/html;base64,PHNjcmlwdD54c3MoKTwvc2NyaXB0Pg==)');
    expect(accepted).toContain('<script>xss()</script>');
    expect(accepted).toContain(`![tracking pixel](https://${FOREIGN}/pixel.png)`);

    const question = await post<{ _id: string }>(page.request, '/api/addQuestion', {
      title: 'Markdown payloads',
      text: accepted.join('\n\n'),
      tags: [{ name: 'markdown-xss' }],
    });
    await post(page.request, '/api/answer/addAnswer', { qid: question._id, ans: { text: accepted.join('\n\n') } });
    // Comments and messages take inline Markdown under the same link rule: each payload is
    // tried as a comment, and one the rule refuses gets its message and is not stored.
    const inlineAccepted: string[] = [];
    for (const payload of MARKDOWN_PAYLOADS) {
      const response = await page.request.post('/api/comment/addComment', {
        data: { id: question._id, type: 'question', comment: { text: payload } },
      });
      if (response.ok()) inlineAccepted.push(payload);
      else expect(await response.json()).toEqual(expect.objectContaining({ error: 'Invalid hyperlink format.' }));
    }
    expect(inlineAccepted).not.toContain('[js](javascript:xss())');
    expect(inlineAccepted).toContain('<script>xss()</script>');
    const forum = await post<{ thread: string }>(page.request, '/api/forum/addForum', {
      name: `markdown ${uniqueUsername('f')}`,
      description: 'payloads',
    });
    const messages = chunks(inlineAccepted, 2_000);
    for (const content of messages) {
      await post(page.request, '/api/message/addMessage', { tid: forum.thread, msg: { content } });
      await post(page.request, '/api/message/addMessage', { tid: 'porpchat', msg: { content, sender: 'payloads' } });
    }

    const readerContext = await browser.newContext();
    const reader = await readerContext.newPage();
    await reader.addInitScript(() => {
      window.xss = () => {
        window.xssRan = true;
      };
    });
    const dialogs: string[] = [];
    reader.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const foreign: string[] = [];
    reader.on('request', (request) => {
      if (new URL(request.url()).hostname !== '127.0.0.1') foreign.push(request.url());
    });
    const recipient = await registerViaApi(reader.request, 'xss');
    const thread = await post<{ _id: string }>(page.request, '/api/thread/addThread', {
      accounts: [author.username, recipient.username],
    });
    for (const content of messages)
      await post(page.request, '/api/message/addMessage', { tid: thread._id, msg: { content } });

    const views: Array<[string, string]> = [
      [`/question/${question._id}`, 'Markdown payloads'],
      [`/threads/${forum.thread}`, 'payloads'],
      [`/threads/${thread._id}`, author.username],
      ['/porpchat', 'payloads'],
    ];
    for (const [url, shown] of views) {
      if (url === '/porpchat') {
        await reader.goto('/');
        await reader.getByLabel('Username').fill('reader');
        await reader.getByRole('button', { name: 'Submit' }).click();
        await expect(reader).toHaveURL(/\/porpchat$/);
      } else await reader.goto(url);
      await expect(reader.getByText(shown).first()).toBeVisible();
      await expect(reader.getByText('<script>xss()</script>').first()).toBeVisible();
      // The highlighted code block has drawn its spans before the page is judged.
      if (url.startsWith('/question')) await expect(reader.locator('.code-block .hljs-tag').first()).toBeVisible();
      for (const selector of ['.markdown a', '.markdown code', '.markdown p']) {
        const target = reader.locator(selector).first();
        if ((await target.count()) > 0) await target.hover();
      }
      expect(await outsideAllowList(reader), url).toEqual([]);
      expect(await reader.evaluate(() => window.xssRan === true), url).toBe(false);
      expect(await reader.locator('#root script, #root iframe, #root img[src="x"], #root svg[onload]').count()).toBe(0);
    }
    expect(dialogs).toEqual([]);
    expect(foreign).toEqual([]);
    await readerContext.close();
  });
});
